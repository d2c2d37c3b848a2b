"""A broken engine for testing the harness: the reference engine with faults on purpose.

Run as ``python engine_double.py FAULTS.json``. It answers every request as
``python -m pegs_rules.spec serve`` does, except the requests named in the
faults file: a list of ``{"type": ..., "position": DIGEST, "move": ..., "fault": ...}``,
where ``DIGEST`` is :func:`pegs_rules.spec.suite.digest_of` of the request's
position text and ``move`` (for ``apply``) its move. The faults:

* ``drop``: leave the first move out of a ``legal`` answer;
* ``add``: add a move that is no move to a ``legal`` answer;
* ``stay``: answer an ``apply`` with the position before the move;
* ``wrong-rule``: reject an ``apply`` citing ``card.joker``;
* ``miscount``: add one to a ``perft`` count;
* ``hang``: never answer;
* ``crash``: exit with status 3;
* ``garbage``: answer with a line that is not JSON.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from pegs_rules.spec.protocol import handle
from pegs_rules.spec.suite import digest_of


def faulty_answer(request: dict[str, Any], fault: str) -> dict[str, Any] | str | None:
    """The wrong answer ``fault`` gives to ``request`` (text for a line that is not JSON)."""
    answer = handle(request)
    assert answer is not None
    if fault == "drop":
        answer["moves"] = answer["moves"][1:]
    elif fault == "add":
        answer["moves"] = [*answer["moves"], "2 0:h5-h5"]
    elif fault == "stay":
        answer = {"id": request["id"], "position": request["position"]}
    elif fault == "wrong-rule":
        answer = {"id": request["id"], "illegal": "card.joker"}
    elif fault == "miscount":
        answer["nodes"] += 1
    elif fault == "hang":
        time.sleep(600)
    elif fault == "crash":
        print("engine double: crashing on purpose", file=sys.stderr, flush=True)
        os._exit(3)
    elif fault == "garbage":
        return "this is not JSON"
    return answer


def main(faults_file: str) -> int:
    faults = {
        (f["type"], f["position"], f.get("move")): f["fault"]
        for f in json.loads(Path(faults_file).read_text(encoding="utf-8"))
    }
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("type") == "quit":
            break
        key = (request["type"], digest_of(request.get("position", "")), request.get("move"))
        fault = faults.get(key)
        answer = handle(request) if fault is None else faulty_answer(request, fault)
        text = answer if isinstance(answer, str) else json.dumps(answer)
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
