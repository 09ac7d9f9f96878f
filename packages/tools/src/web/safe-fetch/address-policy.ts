/**
 * Which IP addresses a fetch may connect to. Ranges come from the IANA
 * special-purpose registries; IPv6 forms that embed an IPv4 address
 * (IPv4-mapped, IPv4-compatible, NAT64, 6to4) are judged by that address, so
 * `::ffff:127.0.0.1` or `64:ff9b::a00:1` cannot smuggle a private target.
 */
import { BlockList, isIP } from "node:net";

/** Why an address is refused; `public` is the only one always allowed. */
export type AddressClass =
  | "public"
  /** 127/8, ::1 */
  | "loopback"
  /** 10/8, 172.16/12, 192.168/16, fc00::/7 */
  | "private"
  /** 169.254.169.254, fd00:ec2::254: cloud instance metadata, refused even with `allowPrivateAddresses`. */
  | "metadata"
  /** 169.254/16, fe80::/10 */
  | "link-local"
  /** 100.64/10 (carrier-grade NAT) */
  | "cgnat"
  /** 224/4, ff00::/8 */
  | "multicast"
  /** 0/8, ::, 240/4, broadcast, documentation, benchmarking, Teredo, discard-only and the other IANA specials */
  | "reserved";

const list = (entries: readonly (readonly [string, number])[], type: "ipv4" | "ipv6"): BlockList => {
  const b = new BlockList();
  for (const [net, prefix] of entries) b.addSubnet(net, prefix, type);
  return b;
};

const V4: readonly (readonly [AddressClass, BlockList])[] = [
  ["metadata", list([["169.254.169.254", 32]], "ipv4")],
  ["loopback", list([["127.0.0.0", 8]], "ipv4")],
  [
    "private",
    list(
      [
        ["10.0.0.0", 8],
        ["172.16.0.0", 12],
        ["192.168.0.0", 16],
      ],
      "ipv4",
    ),
  ],
  ["link-local", list([["169.254.0.0", 16]], "ipv4")],
  ["cgnat", list([["100.64.0.0", 10]], "ipv4")],
  ["multicast", list([["224.0.0.0", 4]], "ipv4")],
  [
    "reserved",
    list(
      [
        ["0.0.0.0", 8],
        ["192.0.0.0", 24],
        ["192.0.2.0", 24],
        ["192.88.99.0", 24],
        ["198.18.0.0", 15],
        ["198.51.100.0", 24],
        ["203.0.113.0", 24],
        ["240.0.0.0", 4],
      ],
      "ipv4",
    ),
  ],
];

const V6: readonly (readonly [AddressClass, BlockList])[] = [
  ["metadata", list([["fd00:ec2::254", 128]], "ipv6")],
  ["loopback", list([["::1", 128]], "ipv6")],
  ["private", list([["fc00::", 7]], "ipv6")],
  ["link-local", list([["fe80::", 10]], "ipv6")],
  ["multicast", list([["ff00::", 8]], "ipv6")],
  [
    "reserved",
    list(
      [
        ["::", 128],
        ["100::", 64],
        ["2001::", 23],
        ["2001:db8::", 32],
        ["3fff::", 20],
        ["5f00::", 16],
        ["fec0::", 10],
      ],
      "ipv6",
    ),
  ],
];

/** Expands an IPv6 literal to its eight 16-bit groups (an embedded dotted IPv4 tail included). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const zone = text.indexOf("%");
  if (zone >= 0) text = text.slice(0, zone);
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1] !== undefined) {
    const [a = 0, b = 0, c = 0, d = 0] = dotted[1].split(".").map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const parse = (s: string): number[] => (s === "" ? [] : s.split(":").map((g) => Number.parseInt(g, 16)));
  const h = parse(head);
  const t = tail === undefined ? [] : parse(tail);
  return [...h, ...Array<number>(8 - h.length - t.length).fill(0), ...t];
}

const v4 = (hi: number, lo: number): string => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/** The IPv4 address an IPv6 address carries (mapped, compatible, NAT64, 6to4), if any. */
function embeddedIpv4(groups: readonly number[]): string | undefined {
  const g = (i: number): number => groups[i] ?? 0;
  const zeros = (from: number, to: number): boolean => groups.slice(from, to).every((x) => x === 0);
  // ::ffff:a.b.c.d (mapped), ::a.b.c.d (compatible, deprecated but still routed by some stacks)
  if (zeros(0, 5) && (g(5) === 0xffff || g(5) === 0) && !(g(5) === 0 && g(6) === 0)) return v4(g(6), g(7));
  // ::ffff:0:a.b.c.d (SIIT translated)
  if (zeros(0, 4) && g(4) === 0xffff && g(5) === 0) return v4(g(6), g(7));
  // 64:ff9b::/96 (NAT64 well-known) and 64:ff9b:1::/48 (local-use NAT64)
  if (g(0) === 0x64 && g(1) === 0xff9b && (zeros(2, 6) || g(2) === 1)) return v4(g(6), g(7));
  // 2002:AABB:CCDD::/48 (6to4)
  if (g(0) === 0x2002) return v4(g(1), g(2));
  return undefined;
}

/**
 * Classifies an IP literal (IPv4 dotted quad or IPv6, as `new URL()` and DNS
 * give them).
 *
 * @param address - an IP address
 * @returns its class; `reserved` for anything that is not an IP literal
 */
export function classifyAddress(address: string): AddressClass {
  const bare = address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address;
  const family = isIP(bare);
  if (family === 4) {
    for (const [cls, b] of V4) if (b.check(bare, "ipv4")) return cls;
    if (bare === "255.255.255.255") return "reserved";
    return "public";
  }
  if (family === 6) {
    const groups = ipv6Groups(bare);
    const inner = embeddedIpv4(groups);
    if (inner !== undefined) {
      const cls = classifyAddress(inner);
      // A v6 wrapper around a public v4 address is public; around anything else it is what it wraps.
      return cls;
    }
    const canonical = groups.map((x) => x.toString(16)).join(":");
    for (const [cls, b] of V6) if (b.check(canonical, "ipv6")) return cls;
    return "public";
  }
  return "reserved";
}

/** What a fetch may reach. */
export interface AddressPolicyOptions {
  /**
   * DeerFlow's `allow_private_addresses`: also allow loopback and private
   * ranges (a self-hosted service on the same machine or network). Metadata,
   * link-local, CGNAT, multicast and reserved addresses stay refused.
   */
  readonly allowPrivateAddresses?: boolean;
}

/**
 * Whether the policy lets a connection go to `address`.
 *
 * @param address - an IP literal
 * @param options - the policy
 * @returns `undefined` when allowed, else the class that refused it
 */
export function refusedClass(address: string, options: AddressPolicyOptions = {}): AddressClass | undefined {
  const cls = classifyAddress(address);
  if (cls === "public") return undefined;
  if (options.allowPrivateAddresses === true && (cls === "loopback" || cls === "private")) return undefined;
  return cls;
}
