// Package gamification is the Go client of the gamification service: the code generated from its
// protobuf definitions (package gamificationv1 for the messages, gamificationv1connect for the
// service clients) and NewClient, which sets the API key and the tenant on every call and picks
// the wire protocol.
//
//	client := gamification.NewClient("http://localhost:8080", apiKey, gamification.WithTenant("acme"))
//	res, err := client.Application.TrackMetricEvent(ctx, connect.NewRequest(&gamificationv1.TrackMetricEventRequest{...}))
package gamification

import (
	"context"
	"net/http"
	"strings"

	"connectrpc.com/connect"

	"github.com/gamification-service/gamification-service/sdk/go/gen/gamification/v1/gamificationv1connect"
)

// Protocol is the wire protocol a Client speaks. The service answers all of them on one port.
type Protocol int

const (
	// ProtocolConnect is the Connect protocol (binary protobuf unless WithJSON), over HTTP/1.1 or HTTP/2.
	ProtocolConnect Protocol = iota
	// ProtocolGRPC is gRPC over HTTP/2: cleartext HTTP/2 (prior knowledge) for http:// URLs, TLS for https://.
	ProtocolGRPC
	// ProtocolGRPCWeb is gRPC-web, over HTTP/1.1 or HTTP/2.
	ProtocolGRPCWeb
)

// Client holds one typed client per service, all sharing the same HTTP client and headers.
type Client struct {
	// Application records events and reads user state.
	Application gamificationv1connect.ApplicationServiceClient
	// Admin configures metrics, attributes, tenants and API keys; needs an admin key.
	Admin gamificationv1connect.AdminServiceClient
	// Achievements configures achievements; needs an admin key.
	Achievements gamificationv1connect.AchievementAdminServiceClient
	// Leaderboards configures leaderboards; needs an admin key.
	Leaderboards gamificationv1connect.LeaderboardAdminServiceClient
	// LeaderboardReads reads leaderboards, rankings and a user's rank and history.
	LeaderboardReads gamificationv1connect.LeaderboardServiceClient
	// Streaks configures the streak settings; needs an admin key.
	Streaks gamificationv1connect.StreakAdminServiceClient
	// Points configures points systems, triggers, levels and boosts; needs an admin key.
	Points gamificationv1connect.PointsAdminServiceClient
	// PointsReads reads a user's points, history and boosts and a system's configuration and summaries.
	PointsReads gamificationv1connect.PointsServiceClient
	// Webhooks manages webhook endpoints, secrets, deliveries and redelivery; needs an admin key.
	Webhooks gamificationv1connect.WebhookAdminServiceClient
}

type config struct {
	tenant      string
	protocol    Protocol
	json        bool
	httpClient  connect.HTTPClient
	connectOpts []connect.ClientOption
}

// Option configures NewClient.
type Option func(*config)

// WithTenant scopes every call to this tenant (your own identifier for it, the tenant's
// customerId) through the Tenant-ID header. Without it, calls act on the account's default scope.
func WithTenant(tenantID string) Option { return func(c *config) { c.tenant = tenantID } }

// WithProtocol picks the wire protocol; the default is ProtocolConnect.
func WithProtocol(p Protocol) Option { return func(c *config) { c.protocol = p } }

// WithJSON sends protobuf JSON instead of the binary encoding (Connect and gRPC-web only; gRPC is always binary).
func WithJSON() Option { return func(c *config) { c.json = true } }

// WithHTTPClient supplies the HTTP client (timeouts, TLS, proxies). For ProtocolGRPC it must speak
// HTTP/2. The default is an HTTP client that also speaks cleartext HTTP/2 for gRPC.
func WithHTTPClient(client connect.HTTPClient) Option {
	return func(c *config) { c.httpClient = client }
}

// WithClientOptions adds connect-go client options (interceptors, compression, read limits).
func WithClientOptions(opts ...connect.ClientOption) Option {
	return func(c *config) { c.connectOpts = append(c.connectOpts, opts...) }
}

// NewClient returns clients for every service of the service at baseURL (e.g.
// "http://localhost:8080"). Every call sends apiKey as X-API-KEY and, with WithTenant, the
// Tenant-ID header. apiKey is an application key (one user) or an admin key; use admin keys from
// server-side code only.
func NewClient(baseURL, apiKey string, opts ...Option) *Client {
	cfg := config{}
	for _, opt := range opts {
		opt(&cfg)
	}
	baseURL = strings.TrimRight(baseURL, "/")
	httpClient := cfg.httpClient
	if httpClient == nil {
		httpClient = defaultHTTPClient(cfg.protocol, baseURL)
	}
	clientOpts := []connect.ClientOption{connect.WithInterceptors(headerInterceptor{apiKey: apiKey, tenant: cfg.tenant})}
	switch cfg.protocol {
	case ProtocolGRPC:
		clientOpts = append(clientOpts, connect.WithGRPC())
	case ProtocolGRPCWeb:
		clientOpts = append(clientOpts, connect.WithGRPCWeb())
	}
	if cfg.json && cfg.protocol != ProtocolGRPC {
		clientOpts = append(clientOpts, connect.WithProtoJSON())
	}
	clientOpts = append(clientOpts, cfg.connectOpts...)
	return &Client{
		Application:      gamificationv1connect.NewApplicationServiceClient(httpClient, baseURL, clientOpts...),
		Admin:            gamificationv1connect.NewAdminServiceClient(httpClient, baseURL, clientOpts...),
		Achievements:     gamificationv1connect.NewAchievementAdminServiceClient(httpClient, baseURL, clientOpts...),
		Leaderboards:     gamificationv1connect.NewLeaderboardAdminServiceClient(httpClient, baseURL, clientOpts...),
		LeaderboardReads: gamificationv1connect.NewLeaderboardServiceClient(httpClient, baseURL, clientOpts...),
		Streaks:          gamificationv1connect.NewStreakAdminServiceClient(httpClient, baseURL, clientOpts...),
		Points:           gamificationv1connect.NewPointsAdminServiceClient(httpClient, baseURL, clientOpts...),
		PointsReads:      gamificationv1connect.NewPointsServiceClient(httpClient, baseURL, clientOpts...),
		Webhooks:         gamificationv1connect.NewWebhookAdminServiceClient(httpClient, baseURL, clientOpts...),
	}
}

// defaultHTTPClient speaks HTTP/1.1 and HTTP/2 over TLS, and for gRPC on an http:// URL cleartext
// HTTP/2 with prior knowledge (h2c), which gRPC needs and the service accepts on its one port.
func defaultHTTPClient(protocol Protocol, baseURL string) *http.Client {
	transport := http.DefaultTransport.(*http.Transport).Clone()
	if protocol == ProtocolGRPC && strings.HasPrefix(baseURL, "http://") {
		var protocols http.Protocols
		protocols.SetUnencryptedHTTP2(true)
		transport.Protocols = &protocols
	}
	return &http.Client{Transport: transport}
}

// headerInterceptor sets X-API-KEY and Tenant-ID on every request, unary and streaming.
type headerInterceptor struct {
	apiKey string
	tenant string
}

func (h headerInterceptor) set(header http.Header) {
	header.Set("X-API-KEY", h.apiKey)
	if h.tenant != "" {
		header.Set("Tenant-ID", h.tenant)
	}
}

func (h headerInterceptor) WrapUnary(next connect.UnaryFunc) connect.UnaryFunc {
	return func(ctx context.Context, req connect.AnyRequest) (connect.AnyResponse, error) {
		h.set(req.Header())
		return next(ctx, req)
	}
}

func (h headerInterceptor) WrapStreamingClient(next connect.StreamingClientFunc) connect.StreamingClientFunc {
	return func(ctx context.Context, spec connect.Spec) connect.StreamingClientConn {
		conn := next(ctx, spec)
		h.set(conn.RequestHeader())
		return conn
	}
}

func (h headerInterceptor) WrapStreamingHandler(next connect.StreamingHandlerFunc) connect.StreamingHandlerFunc {
	return next
}
