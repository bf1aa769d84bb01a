"""Python client of the gamification service.

The messages and the Connect service clients are generated from the service's protobuf
definitions (`gamification.v1.*_pb2` and `gamification.v1.*_connect`); `Client` (sync) and
`AsyncClient` (asyncio) hold one client per service and send `X-API-KEY` and `Tenant-ID` on every
call:

    import gamification
    from gamification.v1.application_service_pb2 import TrackMetricEventRequest
    from gamification.v1.user_pb2 import UpsertedUser

    with gamification.Client("http://localhost:8080", api_key, tenant_id="acme") as client:
        response = client.application.track_metric_event(
            TrackMetricEventRequest(key="words", user=UpsertedUser(id="u1"), value=10))
        print(response.total)

Errors are `connectrpc.errors.ConnectError` (its `code` and `message`).
"""

from ._client import AsyncClient, Client, Protocol

__all__ = ["AsyncClient", "Client", "Protocol"]
__version__ = "0.1.0"
