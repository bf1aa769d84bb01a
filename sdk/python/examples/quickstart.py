"""Quick start: creates the metric "quickstart-words" if it does not exist, tracks an event of value
10 for the user "quickstart-user" and prints the response as one line of JSON.

    pip install ./sdk/python
    GAMIFICATION_URL=http://localhost:8080 GAMIFICATION_API_KEY=<admin key> python sdk/python/examples/quickstart.py

GAMIFICATION_TENANT (optional) scopes the calls to a tenant. `--async` uses the asyncio client;
`--protocol` (or GAMIFICATION_PROTOCOL) picks connect (the default), grpc or grpc-web.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys

from connectrpc.errors import ConnectError
from google.protobuf.json_format import MessageToJson

import gamification
from gamification.v1.admin_service_pb2 import CreateMetricItem, CreateMetricsRequest, ListMetricsRequest
from gamification.v1.application_service_pb2 import TrackMetricEventRequest, TrackMetricEventResponse
from gamification.v1.user_pb2 import UpsertedUser

METRIC_KEY = "quickstart-words"
USER_ID = "quickstart-user"
PAGE_SIZE = 100


def settings() -> tuple[argparse.Namespace, dict]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--async", dest="use_async", action="store_true", help="use gamification.AsyncClient")
    parser.add_argument("--protocol", default=os.environ.get("GAMIFICATION_PROTOCOL", "connect"), choices=["connect", "grpc", "grpc-web"])
    args = parser.parse_args()
    base_url, api_key = os.environ.get("GAMIFICATION_URL"), os.environ.get("GAMIFICATION_API_KEY")
    if not base_url or not api_key:
        sys.exit("quickstart: set GAMIFICATION_URL (e.g. http://localhost:8080) and GAMIFICATION_API_KEY (an admin key)")
    options = {"base_url": base_url, "api_key": api_key, "tenant_id": os.environ.get("GAMIFICATION_TENANT") or None, "protocol": args.protocol}
    return args, options


def track_request() -> TrackMetricEventRequest:
    return TrackMetricEventRequest(key=METRIC_KEY, user=UpsertedUser(id=USER_ID), value=10)


def create_request() -> CreateMetricsRequest:
    return CreateMetricsRequest(metrics=[CreateMetricItem(key=METRIC_KEY, name="Quick start words")])


def print_response(response: TrackMetricEventResponse) -> None:
    # The proto JSON names (metricId, currentStreak), on one line.
    print(MessageToJson(response, indent=None))


def run_sync(options: dict) -> None:
    with gamification.Client(**options) as client:
        # Creates the metric through the Admin service unless a metric with its key exists.
        skip, found = 0, False
        while not found:
            page = client.admin.list_metrics(ListMetricsRequest(limit=PAGE_SIZE, skip=skip))
            found = any(metric.key == METRIC_KEY for metric in page.metrics)
            if len(page.metrics) < PAGE_SIZE:
                break
            skip += PAGE_SIZE
        if not found:
            created = client.admin.create_metrics(create_request())
            if not created.created:
                sys.exit(f"quickstart: the metric was not created: {created.issues}")
        print_response(client.application.track_metric_event(track_request()))


async def run_async(options: dict) -> None:
    async with gamification.AsyncClient(**options) as client:
        skip, found = 0, False
        while not found:
            page = await client.admin.list_metrics(ListMetricsRequest(limit=PAGE_SIZE, skip=skip))
            found = any(metric.key == METRIC_KEY for metric in page.metrics)
            if len(page.metrics) < PAGE_SIZE:
                break
            skip += PAGE_SIZE
        if not found:
            created = await client.admin.create_metrics(create_request())
            if not created.created:
                sys.exit(f"quickstart: the metric was not created: {created.issues}")
        print_response(await client.application.track_metric_event(track_request()))


def main() -> None:
    args, options = settings()
    try:
        if args.use_async:
            asyncio.run(run_async(options))
        else:
            run_sync(options)
    except ConnectError as error:
        sys.exit(f"quickstart: {error.code.name.lower()}: {error.message}")


if __name__ == "__main__":
    main()
