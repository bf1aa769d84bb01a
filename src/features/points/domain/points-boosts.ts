/**
 * Boosts and levels of a points system: which boosts apply to a user at a moment, how they combine
 * and round, and which level a total earns. Pure; exact decimals with big.js.
 */
import Big from "big.js";
import { boostStatus, type AttributeFilterConfig, type BoostRounding, type PointsBoostConfig, type PointsLevelConfig } from "./points-config.js";

/** Custom attribute keys by attribute ID: triggers and boosts filter by ID, users and events carry keys. */
export type AttributeKeys = Readonly<Record<string, string>>;

/**
 * Whether every filter matches the values (by attribute key). A filter naming an attribute ID that
 * is not in `attributeKeys` never matches: an unknown filter fails closed rather than open.
 */
export function matchesFilters(filters: readonly AttributeFilterConfig[], values: Readonly<Record<string, string>>, attributeKeys: AttributeKeys): boolean {
  return filters.every((f) => {
    const key = attributeKeys[f.attributeId];
    return key !== undefined && values[key] === f.attributeValue;
  });
}

/**
 * Filters as the Application API shows them: by attribute key. Attributes in use cannot be
 * deleted; a filter whose attribute is missing is left out rather than shown by ID.
 */
export function filtersByKey(filters: readonly AttributeFilterConfig[], attributeKeys: AttributeKeys): { key: string; value: string }[] {
  return filters.flatMap((f) => {
    const key = attributeKeys[f.attributeId];
    return key === undefined ? [] : [{ key, value: f.attributeValue }];
  });
}

/**
 * The boosts that apply to a user at a moment: not archived, `at` within the boost's UTC days (the
 * end day included), and targeting the user: a user-specific boost by its `userId`, a global boost
 * (no `userId`) when all of its user attribute filters match (none: everyone).
 */
export function applicableBoosts(
  boosts: readonly PointsBoostConfig[],
  user: { userId: string; attributes: Readonly<Record<string, string>> },
  at: Date,
  attributeKeys: AttributeKeys,
): PointsBoostConfig[] {
  return boosts.filter(
    (b) => boostStatus(b, at) === "active" && (b.userId !== null ? b.userId === user.userId : matchesFilters(b.userAttributes, user.attributes, attributeKeys)),
  );
}

/** Rounding modes from the one that gives the fewest points to the one that gives the most. */
const CONSERVATIVE_ORDER: readonly BoostRounding[] = ["down", "nearest", "up"];
const BIG_ROUNDING: Record<BoostRounding, Big.RoundingMode> = { down: Big.roundDown, nearest: Big.roundHalfUp, up: Big.roundUp };

/**
 * How stacked boosts combine: the multipliers multiply exactly (2 × 1.5 × 3 = 9). Rounding is only
 * a setting of decimal multipliers (the reference offers it only for them), so only boosts with a
 * non-integer multiplier have a say; when they disagree the most conservative mode wins
 * (down, then nearest, then up), which protects credit-like systems against slippage. With no
 * decimal multiplier the product of an integer award is an integer and the mode is moot (`down`).
 */
export function combineBoosts(boosts: readonly Pick<PointsBoostConfig, "multiplier" | "rounding">[]): { multiplier: Big; rounding: BoostRounding } {
  let multiplier = new Big(1);
  let rounding: BoostRounding | null = null;
  for (const boost of boosts) {
    const m = new Big(boost.multiplier);
    multiplier = multiplier.times(m);
    if (!m.eq(m.round(0, Big.roundDown))) {
      const mode = boost.rounding;
      if (rounding === null || CONSERVATIVE_ORDER.indexOf(mode) < CONSERVATIVE_ORDER.indexOf(rounding)) rounding = mode;
    }
  }
  return { multiplier, rounding: rounding ?? "down" };
}

/**
 * Points earned after boosts: the whole-number base times the combined multiplier, rounded once,
 * at the end, by the combined mode (`nearest` rounds halves up: 2.5 gives 3). Exact: 3 × 1.1 is
 * 3.3, never 3.3000000000000003.
 */
export function boostedPoints(base: Big, boosts: readonly Pick<PointsBoostConfig, "multiplier" | "rounding">[]): Big {
  if (boosts.length === 0) return base;
  const { multiplier, rounding } = combineBoosts(boosts);
  return base.times(multiplier).round(0, BIG_ROUNDING[rounding]);
}

/**
 * The level a total earns: the level with the highest threshold the total exceeds (total >
 * threshold, the spec's and the reference docs' word), or null when it exceeds none or the system
 * has no levels. So a 0-point "starting level" comes with the first points: the reference's event
 * response example shows it as the change of a first award (total 10, added 10).
 */
export function levelForTotal(total: number, levels: readonly PointsLevelConfig[]): PointsLevelConfig | null {
  let best: PointsLevelConfig | null = null;
  for (const level of levels) if (level.points < total && (best === null || level.points > best.points)) best = level;
  return best;
}
