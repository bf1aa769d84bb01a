// Quick start: creates the metric "quickstart-words" if it does not exist, tracks an event of
// value 10 for the user "quickstart-user" and prints the response as one line of JSON.
//
//	GAMIFICATION_URL=http://localhost:8080 GAMIFICATION_API_KEY=<admin key> go run ./examples/quickstart
//
// GAMIFICATION_TENANT (optional) scopes the calls to a tenant; GAMIFICATION_PROTOCOL (or the
// -protocol flag) picks connect (the default), grpc or grpc-web.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	gamification "github.com/gamification-service/gamification-service/sdk/go"
	gamificationv1 "github.com/gamification-service/gamification-service/sdk/go/gen/gamification/v1"
)

const (
	metricKey = "quickstart-words"
	userID    = "quickstart-user"
)

func main() {
	protocolName := flag.String("protocol", envOr("GAMIFICATION_PROTOCOL", "connect"), "connect, grpc or grpc-web")
	flag.Parse()
	if err := run(*protocolName); err != nil {
		fmt.Fprintln(os.Stderr, "quickstart:", err)
		os.Exit(1)
	}
}

func run(protocolName string) error {
	baseURL, apiKey := os.Getenv("GAMIFICATION_URL"), os.Getenv("GAMIFICATION_API_KEY")
	if baseURL == "" || apiKey == "" {
		return fmt.Errorf("set GAMIFICATION_URL (e.g. http://localhost:8080) and GAMIFICATION_API_KEY (an admin key)")
	}
	protocols := map[string]gamification.Protocol{
		"connect":  gamification.ProtocolConnect,
		"grpc":     gamification.ProtocolGRPC,
		"grpc-web": gamification.ProtocolGRPCWeb,
	}
	protocol, ok := protocols[protocolName]
	if !ok {
		return fmt.Errorf("unknown protocol %q: use connect, grpc or grpc-web", protocolName)
	}
	opts := []gamification.Option{gamification.WithProtocol(protocol)}
	if tenant := os.Getenv("GAMIFICATION_TENANT"); tenant != "" {
		opts = append(opts, gamification.WithTenant(tenant))
	}
	client := gamification.NewClient(baseURL, apiKey, opts...)

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := ensureMetric(ctx, client); err != nil {
		return err
	}
	res, err := client.Application.TrackMetricEvent(ctx, connect.NewRequest(&gamificationv1.TrackMetricEventRequest{
		Key:   metricKey,
		User:  &gamificationv1.UpsertedUser{Id: userID},
		Value: proto.Float64(10),
	}))
	if err != nil {
		return fmt.Errorf("tracking an event: %w", err)
	}
	// protojson's spacing varies on purpose; compacting gives one stable line.
	out, err := protojson.Marshal(res.Msg)
	if err != nil {
		return err
	}
	var line bytes.Buffer
	if err := json.Compact(&line, out); err != nil {
		return err
	}
	fmt.Println(line.String())
	return nil
}

// ensureMetric creates the metric through the Admin service unless a metric with its key exists.
func ensureMetric(ctx context.Context, client *gamification.Client) error {
	const pageSize = 100
	for skip := int32(0); ; skip += pageSize {
		page, err := client.Admin.ListMetrics(ctx, connect.NewRequest(&gamificationv1.ListMetricsRequest{
			Limit: proto.Int32(pageSize),
			Skip:  skip,
		}))
		if err != nil {
			return fmt.Errorf("listing metrics: %w", err)
		}
		for _, metric := range page.Msg.GetMetrics() {
			if metric.GetKey() == metricKey {
				return nil
			}
		}
		if len(page.Msg.GetMetrics()) < pageSize {
			break
		}
	}
	created, err := client.Admin.CreateMetrics(ctx, connect.NewRequest(&gamificationv1.CreateMetricsRequest{
		Metrics: []*gamificationv1.CreateMetricItem{{Key: metricKey, Name: "Quick start words"}},
	}))
	if err != nil {
		return fmt.Errorf("creating the metric: %w", err)
	}
	if len(created.Msg.GetCreated()) == 0 {
		return fmt.Errorf("creating the metric: %v", created.Msg.GetIssues())
	}
	return nil
}

func envOr(name, fallback string) string {
	if value := os.Getenv(name); value != "" {
		return value
	}
	return fallback
}
