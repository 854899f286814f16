"""The four games bound to the server (one module each, ``BINDING``; see ``server.games``)."""
