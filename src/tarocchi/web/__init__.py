"""The web face: server-rendered pages, the JSON API, the play page and the SVG cards."""
