"""The use cases: every rule, limit and transaction of the site (views and commands call one)."""
