"""The first step of an engine adapter: it says hello and serves nothing yet."""

import json
import sys

for line in sys.stdin:
    request = json.loads(line)
    if request.get("type") == "quit":
        break
    if request.get("type") == "hello":
        reply = {
            "engine": "my-engine",
            "version": "0.1",
            "protocol": 1,
            "supports": {"requests": []},
        }
    else:
        reply = {"unsupported": "nothing is served yet"}
    print(json.dumps({"id": request.get("id"), **reply}), flush=True)
