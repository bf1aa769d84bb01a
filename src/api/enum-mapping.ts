/**
 * A two-way mapping between a domain string union and a generated protobuf enum. The enum's zero
 * value (`UNSPECIFIED`) and any value not listed map to `undefined`: "not given".
 */
export function enumMapping<D extends string, P extends number>(pairs: ReadonlyArray<readonly [D, P]>) {
  return {
    toProto(value: D): P {
      const pair = pairs.find(([domain]) => domain === value);
      if (!pair) throw new Error(`no protobuf value for "${value}"`);
      return pair[1];
    },
    fromProto(value: P | undefined): D | undefined {
      return pairs.find(([, proto]) => proto === value)?.[0];
    },
  };
}
