"""The baseline for the load benchmark: a bare Flask endpoint, served the same way as DeckHub."""
from flask import Flask

app = Flask(__name__)


@app.route("/")
def hello():
    return "hello"
