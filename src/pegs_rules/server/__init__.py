"""``pegs serve``: a game server that the engine judges (the optional extra ``pegs-rules[server]``).

The server stores, routes and checks tokens; the rules stay in the library.

* :mod:`~pegs_rules.server.app`: the ASGI application (Starlette) and its HTTP routes;
* :mod:`~pegs_rules.server.session`: one WebSocket connection, its output bounded;
* :mod:`~pegs_rules.server.protocol`: the messages and their limits;
* :mod:`~pegs_rules.server.registry`: the games of one server process: joins, moves, bots,
  and following the other servers on the same store;
* :mod:`~pegs_rules.server.games`: one game in memory, rebuilt from the store;
* :mod:`~pegs_rules.server.store`: the store interface; :mod:`~pegs_rules.server.sqlite` (one
  file, one process) and :mod:`~pegs_rules.server.postgres` (any number of processes) implement it,
  and :mod:`~pegs_rules.server.database` chooses one;
* :mod:`~pegs_rules.server.thinking`: where and when bots think, the workers shared fairly;
* :mod:`~pegs_rules.server.limits` and :mod:`~pegs_rules.server.connections`: rate limits, the
  log of clients' mistakes, read timeouts, request-head limits, the bound on connections, and
  closing on peers that stop reading;
* :mod:`~pegs_rules.server.metrics`: what the server tells its operator (Prometheus), and
  :mod:`~pegs_rules.server.logs`: its log, one line an event, bounded per client;
* :mod:`~pegs_rules.server.admin`: ``pegs admin``, the operator's tools, and
  :mod:`~pegs_rules.server.operating`: how every server follows what they do;
* :mod:`~pegs_rules.server.client`: a Python client that reconnects by itself.

Importing :mod:`pegs_rules` never imports this package.
"""
