// Conformance runner (test/transport/conformance.test.ts): configures the tenant through the Admin services
// as a scenario file (test/conformance/scenario.json) says, sends its events through the Go client,
// reads the users' state back and prints one JSON document: the responses as protojson and a
// summary read through the typed messages. The TypeScript and Python runners print the same
// document; the test compares them.
//
//	GAMIFICATION_URL=http://localhost:8080 GAMIFICATION_API_KEY=<admin key> GAMIFICATION_TENANT=<tenant> \
//	GAMIFICATION_PROTOCOL=grpc CONFORMANCE_SCENARIO=test/conformance/scenario.json go run ./examples/conformance
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	gamification "github.com/gamification-service/gamification-service/sdk/go"
	gamificationv1 "github.com/gamification-service/gamification-service/sdk/go/gen/gamification/v1"
)

type scenario struct {
	// Configuration holds the Admin requests in protojson; "$metric" stands for the metric's ID.
	Configuration map[string]json.RawMessage `json:"configuration"`
	Metric        string                     `json:"metric"`
	PointsSystem  string                     `json:"pointsSystem"`
	Leaderboard   string                     `json:"leaderboard"`
	Users         []string                   `json:"users"`
	Events        []struct {
		User      string    `json:"user"`
		Value     float64   `json:"value"`
		Timestamp time.Time `json:"timestamp"`
	} `json:"events"`
}

type userReads struct {
	Metric       json.RawMessage `json:"metric"`
	Points       json.RawMessage `json:"points"`
	Streak       json.RawMessage `json:"streak"`
	Achievements json.RawMessage `json:"achievements"`
	Leaderboard  json.RawMessage `json:"leaderboard"`
}

type summary struct {
	MetricTotal  float64  `json:"metricTotal"`
	PointsTotal  int64    `json:"pointsTotal"`
	Level        string   `json:"level"`
	StreakLength int32    `json:"streakLength"`
	Achievements []string `json:"achievements"`
	Rank         int32    `json:"rank"`
	Value        float64  `json:"value"`
}

type document struct {
	Configured map[string]json.RawMessage `json:"configured"`
	Tracked    []json.RawMessage          `json:"tracked"`
	Users      map[string]userReads       `json:"users"`
	Summary    map[string]summary         `json:"summary"`
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		os.Exit(1)
	}
}

func run() error {
	baseURL, apiKey, tenant := os.Getenv("GAMIFICATION_URL"), os.Getenv("GAMIFICATION_API_KEY"), os.Getenv("GAMIFICATION_TENANT")
	if baseURL == "" || apiKey == "" || tenant == "" {
		return fmt.Errorf("set GAMIFICATION_URL, GAMIFICATION_API_KEY (an admin key) and GAMIFICATION_TENANT")
	}
	protocols := map[string]gamification.Protocol{
		"connect":  gamification.ProtocolConnect,
		"grpc":     gamification.ProtocolGRPC,
		"grpc-web": gamification.ProtocolGRPCWeb,
	}
	protocol, ok := protocols[os.Getenv("GAMIFICATION_PROTOCOL")]
	if !ok {
		return fmt.Errorf("GAMIFICATION_PROTOCOL %q: use connect, grpc or grpc-web", os.Getenv("GAMIFICATION_PROTOCOL"))
	}
	raw, err := os.ReadFile(os.Getenv("CONFORMANCE_SCENARIO"))
	if err != nil {
		return fmt.Errorf("reading the scenario (CONFORMANCE_SCENARIO): %w", err)
	}
	var sc scenario
	if err := json.Unmarshal(raw, &sc); err != nil {
		return fmt.Errorf("parsing the scenario: %w", err)
	}

	client := gamification.NewClient(baseURL, apiKey, gamification.WithTenant(tenant), gamification.WithProtocol(protocol))
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	doc := document{Tracked: []json.RawMessage{}, Users: map[string]userReads{}, Summary: map[string]summary{}}
	configured, err := configure(ctx, client, sc.Configuration)
	if err != nil {
		return err
	}
	doc.Configured = configured

	// The events, in order, then each user's state.
	for i, event := range sc.Events {
		res, err := client.Application.TrackMetricEvent(ctx, connect.NewRequest(&gamificationv1.TrackMetricEventRequest{
			Key:       sc.Metric,
			User:      &gamificationv1.UpsertedUser{Id: event.User},
			Value:     proto.Float64(event.Value),
			Timestamp: timestamppb.New(event.Timestamp),
		}))
		if err != nil {
			return fmt.Errorf("event %d: %w", i, err)
		}
		doc.Tracked = append(doc.Tracked, marshal(res.Msg))
	}
	for _, id := range sc.Users {
		metric, err := client.Application.GetUserMetric(ctx, connect.NewRequest(&gamificationv1.GetUserMetricRequest{Id: id, Key: sc.Metric}))
		if err != nil {
			return fmt.Errorf("%s's metric: %w", id, err)
		}
		points, err := client.PointsReads.GetUserPoints(ctx, connect.NewRequest(&gamificationv1.GetUserPointsRequest{Id: id, Key: sc.PointsSystem}))
		if err != nil {
			return fmt.Errorf("%s's points: %w", id, err)
		}
		streak, err := client.Application.GetUserStreak(ctx, connect.NewRequest(&gamificationv1.GetUserStreakRequest{Id: id}))
		if err != nil {
			return fmt.Errorf("%s's streak: %w", id, err)
		}
		achievements, err := client.Application.ListUserAchievements(ctx, connect.NewRequest(&gamificationv1.ListUserAchievementsRequest{Id: id}))
		if err != nil {
			return fmt.Errorf("%s's achievements: %w", id, err)
		}
		leaderboard, err := client.LeaderboardReads.GetUserLeaderboard(ctx, connect.NewRequest(&gamificationv1.GetUserLeaderboardRequest{Id: id, Key: sc.Leaderboard}))
		if err != nil {
			return fmt.Errorf("%s's leaderboard: %w", id, err)
		}
		doc.Users[id] = userReads{
			Metric:       marshal(metric.Msg),
			Points:       marshal(points.Msg),
			Streak:       marshal(streak.Msg),
			Achievements: marshal(achievements.Msg),
			Leaderboard:  marshal(leaderboard.Msg),
		}
		keys := []string{}
		for _, achievement := range achievements.Msg.GetAchievements() {
			keys = append(keys, achievement.GetKey())
		}
		doc.Summary[id] = summary{
			MetricTotal:  metric.Msg.GetMetric().GetCurrent(),
			PointsTotal:  points.Msg.GetPoints().GetTotal(),
			Level:        points.Msg.GetPoints().GetLevel().GetKey(),
			StreakLength: streak.Msg.GetStreak().GetLength(),
			Achievements: keys,
			Rank:         leaderboard.Msg.GetLeaderboard().GetRank(),
			Value:        leaderboard.Msg.GetLeaderboard().GetValue(),
		}
	}
	if marshalErr != nil {
		return marshalErr
	}
	return json.NewEncoder(os.Stdout).Encode(doc)
}

// configure creates the tenant's configuration through the Admin services and returns their answers.
func configure(ctx context.Context, client *gamification.Client, config map[string]json.RawMessage) (map[string]json.RawMessage, error) {
	parse := func(name string, metricID string, into proto.Message) error {
		raw := config[name]
		if metricID != "" {
			quoted, _ := json.Marshal(metricID)
			raw = bytes.ReplaceAll(raw, []byte(`"$metric"`), quoted)
		}
		if err := protojson.Unmarshal(raw, into); err != nil {
			return fmt.Errorf("the scenario's %s: %w", name, err)
		}
		return nil
	}
	out := map[string]json.RawMessage{}

	metrics := &gamificationv1.CreateMetricsRequest{}
	if err := parse("metrics", "", metrics); err != nil {
		return nil, err
	}
	createdMetrics, err := client.Admin.CreateMetrics(ctx, connect.NewRequest(metrics))
	if err != nil {
		return nil, fmt.Errorf("creating the metric: %w", err)
	}
	if len(createdMetrics.Msg.GetCreated()) == 0 {
		return nil, fmt.Errorf("the metric was not created: %v", createdMetrics.Msg.GetIssues())
	}
	metricID := createdMetrics.Msg.GetCreated()[0].GetId()
	out["metrics"] = marshal(createdMetrics.Msg)

	achievements := &gamificationv1.CreateAchievementsRequest{}
	if err := parse("achievements", metricID, achievements); err != nil {
		return nil, err
	}
	createdAchievements, err := client.Achievements.CreateAchievements(ctx, connect.NewRequest(achievements))
	if err != nil {
		return nil, fmt.Errorf("creating the achievements: %w", err)
	}
	out["achievements"] = marshal(createdAchievements.Msg)

	systems := &gamificationv1.CreatePointsSystemsRequest{}
	if err := parse("pointsSystems", metricID, systems); err != nil {
		return nil, err
	}
	createdSystems, err := client.Points.CreatePointsSystems(ctx, connect.NewRequest(systems))
	if err != nil {
		return nil, fmt.Errorf("creating the points system: %w", err)
	}
	out["pointsSystems"] = marshal(createdSystems.Msg)

	leaderboards := &gamificationv1.CreateLeaderboardsRequest{}
	if err := parse("leaderboards", metricID, leaderboards); err != nil {
		return nil, err
	}
	createdLeaderboards, err := client.Leaderboards.CreateLeaderboards(ctx, connect.NewRequest(leaderboards))
	if err != nil {
		return nil, fmt.Errorf("creating the leaderboard: %w", err)
	}
	out["leaderboards"] = marshal(createdLeaderboards.Msg)

	streaks := &gamificationv1.UpdateStreakSettingsRequest{}
	if err := parse("streakSettings", metricID, streaks); err != nil {
		return nil, err
	}
	updatedStreaks, err := client.Streaks.UpdateStreakSettings(ctx, connect.NewRequest(streaks))
	if err != nil {
		return nil, fmt.Errorf("updating the streak settings: %w", err)
	}
	out["streakSettings"] = marshal(updatedStreaks.Msg)
	return out, nil
}

// marshalErr is the first error of marshal, which the document's many messages would otherwise
// each have to check.
var marshalErr error

// marshal is the message's protojson (the proto JSON names, as every runner prints them).
func marshal(message proto.Message) json.RawMessage {
	out, err := protojson.Marshal(message)
	if err != nil && marshalErr == nil {
		marshalErr = err
	}
	return out
}
