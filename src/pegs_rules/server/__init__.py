"""``pegs serve``: a game server that the engine judges (the optional extra ``pegs-rules[server]``).

The server stores, routes and checks tokens; the rules stay in the library.

* :mod:`~pegs_rules.server.app`: the ASGI application (Starlette) and its HTTP routes;
* :mod:`~pegs_rules.server.session`: one WebSocket connection;
* :mod:`~pegs_rules.server.protocol`: the messages and their limits;
* :mod:`~pegs_rules.server.games`: the games in play, moves, bots;
* :mod:`~pegs_rules.server.store`: the store interface and its SQLite implementation;
* :mod:`~pegs_rules.server.client`: a Python client that reconnects by itself.

Importing :mod:`pegs_rules` never imports this package.
"""
