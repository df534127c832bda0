"""Runs scim2-tester's checks against a live SCIM server; one JSON line per check on stdout.

usage: python run-scim2-tester.py <base URL> <bearer token>
(tests/scim/conformance.test.ts runs it with the venv .ci/run makes.)
"""

import json
import sys

import httpx2
from scim2_client.engines.httpx2 import SyncSCIMClient
from scim2_tester import check_server


def main() -> None:
    url, token = sys.argv[1], sys.argv[2]
    http = httpx2.Client(base_url=url, headers={"Authorization": f"Bearer {token}"}, timeout=30)
    client = SyncSCIMClient(http)
    for result in check_server(client):
        print(
            json.dumps(
                {
                    "status": result.status.name,
                    "title": result.title,
                    "resource_type": result.resource_type,
                    "reason": result.reason,
                }
            )
        )


if __name__ == "__main__":
    main()
