"""Console commands that the `deckhub` group in deckhub/cli.py adds (each a plain click command)."""
