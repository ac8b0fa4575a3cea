"""The pages of the app."""

from __future__ import annotations

from flask import Blueprint, Flask, render_template

bp = Blueprint("pages", __name__)


@bp.get("/")
def index():
    """The start page: begin a new game or bring one in from a pad file."""
    return render_template("index.html")


def init_app(app: Flask) -> None:
    """Register the pages on `app`."""
    app.register_blueprint(bp)
