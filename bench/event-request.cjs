// autocannon's per-request hook (loaded by path in its worker thread, hence CommonJS): the body of
// one event call for a user picked at random among BENCH_LOAD_USERS existing users (`user-<n>`),
// one in twenty a new user. The worker reads the settings from the environment it inherited.
"use strict";
const { randomBytes } = require("node:crypto");

module.exports = function eventRequest(request) {
  const among = Number(process.env.BENCH_LOAD_USERS);
  const id = Math.random() < 0.05 ? `new-${randomBytes(6).toString("hex")}` : `user-${Math.floor(Math.random() * among)}`;
  return { ...request, body: JSON.stringify({ user: { id }, value: 5 }) };
};
