"""Client and AsyncClient: one typed client per service, all sending X-API-KEY and Tenant-ID."""

from __future__ import annotations

import gc
from types import TracebackType
from typing import Any, Literal

from connectrpc.codec import Codec
from connectrpc.compat import google_protobuf_binary_codec, google_protobuf_json_codec
from connectrpc.protocol import ProtocolType
from connectrpc.request import RequestContext
from pyqwest import Client as HTTPClient
from pyqwest import HTTPTransport, HTTPVersion, SyncClient, SyncHTTPTransport

from .v1.achievement_admin_service_connect import AchievementAdminServiceClient, AchievementAdminServiceClientSync
from .v1.admin_service_connect import AdminServiceClient, AdminServiceClientSync
from .v1.application_service_connect import ApplicationServiceClient, ApplicationServiceClientSync
from .v1.leaderboard_admin_service_connect import LeaderboardAdminServiceClient, LeaderboardAdminServiceClientSync
from .v1.leaderboard_service_connect import LeaderboardServiceClient, LeaderboardServiceClientSync
from .v1.points_admin_service_connect import PointsAdminServiceClient, PointsAdminServiceClientSync
from .v1.points_service_connect import PointsServiceClient, PointsServiceClientSync
from .v1.streak_admin_service_connect import StreakAdminServiceClient, StreakAdminServiceClientSync
from .v1.webhook_admin_service_connect import WebhookAdminServiceClient, WebhookAdminServiceClientSync

Protocol = Literal["connect", "grpc", "grpc-web"]
"""The wire protocol. The service answers all three on one port."""

_PROTOCOLS: dict[str, ProtocolType] = {
    "connect": ProtocolType.CONNECT,
    "grpc": ProtocolType.GRPC,
    "grpc-web": ProtocolType.GRPC_WEB,
}


_SERVICES = ("application", "admin", "achievements", "leaderboards", "leaderboard_reads", "streaks", "points", "points_reads", "webhooks")


class _Headers:
    """A metadata interceptor (sync and async) that sets the API key and the tenant on every call."""

    def __init__(self, api_key: str, tenant_id: str | None) -> None:
        self._api_key = api_key
        self._tenant_id = tenant_id

    def _set(self, ctx: RequestContext) -> None:
        ctx.request_headers["x-api-key"] = self._api_key
        if self._tenant_id is not None:
            ctx.request_headers["tenant-id"] = self._tenant_id

    async def on_start(self, ctx: RequestContext) -> None:
        self._set(ctx)

    async def on_end(self, token: None, ctx: RequestContext, error: Exception | None) -> None:
        return None

    def on_start_sync(self, ctx: RequestContext) -> None:
        self._set(ctx)

    def on_end_sync(self, token: None, ctx: RequestContext, error: Exception | None) -> None:
        return None


def _options(base_url: str, api_key: str, tenant_id: str | None, protocol: str, use_json: bool, timeout_ms: int | None) -> tuple[str, dict[str, Any]]:
    if not base_url:
        raise ValueError("base_url is required, e.g. http://localhost:8080")
    if not api_key:
        raise ValueError("api_key is required (an application or admin key)")
    if protocol not in _PROTOCOLS:
        raise ValueError(f"unknown protocol {protocol!r}: use 'connect', 'grpc' or 'grpc-web'")
    if use_json and protocol == "grpc":
        raise ValueError("gRPC is always binary: use_json needs protocol 'connect' or 'grpc-web'")
    codec: Codec = google_protobuf_json_codec() if use_json else google_protobuf_binary_codec()
    return base_url.rstrip("/"), {
        "codec": codec,
        "protocol": _PROTOCOLS[protocol],
        "timeout_ms": timeout_ms,
        # Requests go uncompressed: they are small, so compressing them costs more than it saves (the
        # service accepts gzip and br all the same; responses may come compressed).
        "send_compression": None,
        "interceptors": (_Headers(api_key, tenant_id),),
    }


def _needs_http2(base_url: str, protocol: str) -> bool:
    # gRPC needs HTTP/2; over cleartext (http://) the transport must use it from the start (prior
    # knowledge). Over TLS, ALPN picks HTTP/2 with the default transport.
    return protocol == "grpc" and base_url.startswith("http://")


class Client:
    """Synchronous clients for every service of the gamification service.

    Every call sends `X-API-KEY: api_key` and, when `tenant_id` is given, `Tenant-ID: tenant_id`
    (your own identifier for the tenant, its customerId); without it calls act on the default scope.

        with gamification.Client("http://localhost:8080", api_key, tenant_id="acme") as client:
            response = client.application.track_metric_event(
                TrackMetricEventRequest(key="words", user=UpsertedUser(id="u1"), value=10))

    Args:
        base_url: the service's address, with its scheme (`http://localhost:8080`).
        api_key: an application key (one user) or an admin key (server-side code only).
        tenant_id: scopes every call to this tenant.
        protocol: "connect" (the default), "grpc" (HTTP/2) or "grpc-web".
        use_json: send protobuf JSON instead of the binary encoding (Connect and gRPC-web).
        timeout_ms: a default timeout for every call.
        http_client: a pyqwest SyncClient of your own (TLS, proxies, timeouts); you close it.
    """

    application: ApplicationServiceClientSync
    """Records events and reads user state."""
    admin: AdminServiceClientSync
    """Metrics, attributes, tenants and API keys; needs an admin key."""
    achievements: AchievementAdminServiceClientSync
    """Achievement configuration; needs an admin key."""
    leaderboards: LeaderboardAdminServiceClientSync
    """Leaderboard configuration; needs an admin key."""
    leaderboard_reads: LeaderboardServiceClientSync
    """Leaderboards, rankings of any run and group, a user's rank and history."""
    streaks: StreakAdminServiceClientSync
    """Streak settings; needs an admin key."""
    points: PointsAdminServiceClientSync
    """Points systems and their triggers, levels and boosts; needs an admin key."""
    points_reads: PointsServiceClientSync
    """A user's points, history and boosts; a system's triggers, boosts, levels and summaries."""
    webhooks: WebhookAdminServiceClientSync
    """Webhook endpoints, secrets, deliveries and redelivery; needs an admin key."""

    def __init__(
        self,
        base_url: str,
        api_key: str,
        tenant_id: str | None = None,
        *,
        protocol: Protocol = "connect",
        use_json: bool = False,
        timeout_ms: int | None = None,
        http_client: SyncClient | None = None,
    ) -> None:
        address, options = _options(base_url, api_key, tenant_id, protocol, use_json, timeout_ms)
        self._transport: SyncHTTPTransport | None = None
        if http_client is None and _needs_http2(address, protocol):
            self._transport = SyncHTTPTransport(http_version=HTTPVersion.HTTP2)
            http_client = SyncClient(self._transport)
        options["http_client"] = http_client
        self.application = ApplicationServiceClientSync(address, **options)
        self.admin = AdminServiceClientSync(address, **options)
        self.achievements = AchievementAdminServiceClientSync(address, **options)
        self.leaderboards = LeaderboardAdminServiceClientSync(address, **options)
        self.leaderboard_reads = LeaderboardServiceClientSync(address, **options)
        self.streaks = StreakAdminServiceClientSync(address, **options)
        self.points = PointsAdminServiceClientSync(address, **options)
        self.points_reads = PointsServiceClientSync(address, **options)
        self.webhooks = WebhookAdminServiceClientSync(address, **options)

    def close(self) -> None:
        """Closes the clients (and the HTTP/2 transport made for gRPC, if any)."""
        for name in _SERVICES:
            getattr(self, name).close()
        if self._transport is not None:
            self._transport.close()
            self._transport = None

    def __enter__(self) -> Client:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()


class AsyncClient:
    """Asynchronous clients for every service; the same arguments as Client (`http_client` is a
    pyqwest Client). Use it as `async with`, or call `await client.close()`."""

    application: ApplicationServiceClient
    """Records events and reads user state."""
    admin: AdminServiceClient
    """Metrics, attributes, tenants and API keys; needs an admin key."""
    achievements: AchievementAdminServiceClient
    """Achievement configuration; needs an admin key."""
    leaderboards: LeaderboardAdminServiceClient
    """Leaderboard configuration; needs an admin key."""
    leaderboard_reads: LeaderboardServiceClient
    """Leaderboards, rankings of any run and group, a user's rank and history."""
    streaks: StreakAdminServiceClient
    """Streak settings; needs an admin key."""
    points: PointsAdminServiceClient
    """Points systems and their triggers, levels and boosts; needs an admin key."""
    points_reads: PointsServiceClient
    """A user's points, history and boosts; a system's triggers, boosts, levels and summaries."""
    webhooks: WebhookAdminServiceClient
    """Webhook endpoints, secrets, deliveries and redelivery; needs an admin key."""

    def __init__(
        self,
        base_url: str,
        api_key: str,
        tenant_id: str | None = None,
        *,
        protocol: Protocol = "connect",
        use_json: bool = False,
        timeout_ms: int | None = None,
        http_client: HTTPClient | None = None,
    ) -> None:
        address, options = _options(base_url, api_key, tenant_id, protocol, use_json, timeout_ms)
        self._transport: HTTPTransport | None = None
        if http_client is None:
            # A transport of its own, closed by close(): pyqwest's shared default transport can
            # abort the interpreter at exit when an event loop used it.
            self._transport = HTTPTransport(http_version=HTTPVersion.HTTP2 if _needs_http2(address, protocol) else None, tls_include_system_certs=True)
            http_client = HTTPClient(self._transport)
        options["http_client"] = http_client
        self.application = ApplicationServiceClient(address, **options)
        self.admin = AdminServiceClient(address, **options)
        self.achievements = AchievementAdminServiceClient(address, **options)
        self.leaderboards = LeaderboardAdminServiceClient(address, **options)
        self.leaderboard_reads = LeaderboardServiceClient(address, **options)
        self.streaks = StreakAdminServiceClient(address, **options)
        self.points = PointsAdminServiceClient(address, **options)
        self.points_reads = PointsServiceClient(address, **options)
        self.webhooks = WebhookAdminServiceClient(address, **options)

    async def close(self) -> None:
        """Closes the clients and the transport made for them (not an `http_client` of yours)."""
        for name in _SERVICES:
            client = self.__dict__.get(name)
            if client is not None:
                await client.close()
        if self._transport is not None:
            await self._transport.aclose()
            self._transport = None
        # The service clients hold reference cycles (their interceptor chains), so only the garbage
        # collector frees them and their pyqwest client. Collected at interpreter exit, after the
        # event loop closed, pyqwest can abort the process (pyqwest 0.12): free them here instead,
        # while the loop runs.
        for name in _SERVICES:
            self.__dict__.pop(name, None)
        gc.collect()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        await self.close()
