"""Live play: the lobby, the table page and its one action endpoint, the WebSocket pushes."""
