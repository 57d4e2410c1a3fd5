import { BlockList, isIP } from "node:net";

/** Decides which addresses and host names outbound requests may reach. */
export interface IpPolicy {
  /** A label such as "private" or "loopback" when the address is refused, otherwise null. */
  addressBlockedReason(address: string): string | null;
  /** A label when the host name itself is refused (before any DNS), otherwise null. */
  hostBlockedReason(hostname: string): string | null;
}

type Rule = readonly [network: string, prefix: number, label: string];

// Single addresses get a more precise label than the range that contains them.
const SPECIAL_ADDRESSES: readonly (readonly [string, string])[] = [
  ["169.254.169.254", "cloud metadata"],
  ["169.254.170.2", "cloud metadata"],
  ["100.100.100.200", "cloud metadata"],
  ["192.0.0.192", "cloud metadata"],
  ["fd00:ec2::254", "cloud metadata"],
  ["255.255.255.255", "broadcast"],
];

const IPV4_RULES: readonly Rule[] = [
  ["0.0.0.0", 8, "unspecified"],
  ["10.0.0.0", 8, "private"],
  ["100.64.0.0", 10, "carrier-grade NAT"],
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "link-local"],
  ["172.16.0.0", 12, "private"],
  ["192.0.0.0", 24, "reserved"],
  ["192.0.2.0", 24, "reserved"],
  ["192.88.99.0", 24, "reserved"],
  ["192.168.0.0", 16, "private"],
  ["198.18.0.0", 15, "reserved"],
  ["198.51.100.0", 24, "reserved"],
  ["203.0.113.0", 24, "reserved"],
  ["224.0.0.0", 4, "multicast"],
  ["240.0.0.0", 4, "reserved"],
];

// IPv6 outside 2000::/3 is refused as reserved unless it embeds an IPv4 address (handled first).
const IPV6_RULES: readonly Rule[] = [
  ["::", 128, "unspecified"],
  ["::1", 128, "loopback"],
  ["2001::", 32, "reserved"],
  ["2001:2::", 48, "reserved"],
  ["2001:db8::", 32, "reserved"],
  ["3fff::", 20, "reserved"],
  ["fc00::", 7, "private"],
  ["fe80::", 10, "link-local"],
  ["fec0::", 10, "private"],
  ["ff00::", 8, "multicast"],
];

// Names that cloud providers answer with instance credentials; they resolve to blocked addresses
// anyway, but refusing the name gives a clear message even where DNS is unusual.
const METADATA_HOSTS = new Set([
  "metadata",
  "metadata.google.internal",
  "metadata.goog",
  "instance-data",
  "instance-data.ec2.internal",
]);

/** Builds the production policy, or one that allows everything for development and tests. */
export function createIpPolicy(options: { allowPrivateNetworks: boolean }): IpPolicy {
  if (options.allowPrivateNetworks) {
    return { addressBlockedReason: () => null, hostBlockedReason: () => null };
  }
  const special = new Map<string, string>();
  for (const [address, label] of SPECIAL_ADDRESSES) special.set(canonical(address), label);
  const rules = buildRules();

  const v4Reason = (address: string): string | null =>
    special.get(address) ?? matchRule(rules, address, "ipv4");

  return {
    addressBlockedReason(rawAddress) {
      const address = canonical(rawAddress);
      const family = isIP(address);
      if (family === 4) return v4Reason(address);
      if (family !== 6) return "invalid";
      const specialLabel = special.get(address);
      if (specialLabel) return specialLabel;
      const words = ipv6Words(address);
      const embedded = embeddedIpv4(words);
      if (embedded) return v4Reason(embedded.address) ?? (embedded.routable ? null : "reserved");
      const label = matchRule(rules, address, "ipv6");
      if (label) return label;
      const globalUnicast = (words[0]! & 0xe000) === 0x2000;
      return globalUnicast ? null : "reserved";
    },
    hostBlockedReason(hostname) {
      const name = hostname.toLowerCase().replace(/\.+$/, "");
      return METADATA_HOSTS.has(name) ? "cloud metadata" : null;
    },
  };
}

function buildRules(): Map<string, BlockList> {
  const byLabel = new Map<string, BlockList>();
  const add = ([network, prefix, label]: Rule, family: "ipv4" | "ipv6") => {
    let list = byLabel.get(label);
    if (!list) {
      list = new BlockList();
      byLabel.set(label, list);
    }
    list.addSubnet(network, prefix, family);
  };
  for (const rule of IPV4_RULES) add(rule, "ipv4");
  for (const rule of IPV6_RULES) add(rule, "ipv6");
  return byLabel;
}

function matchRule(
  rules: Map<string, BlockList>,
  address: string,
  family: "ipv4" | "ipv6",
): string | null {
  for (const [label, list] of rules) {
    if (list.check(address, family)) return label;
  }
  return null;
}

/** Lower case without an IPv6 zone id (BlockList does not match "fe80::1%eth0"). */
function canonical(address: string): string {
  const zone = address.indexOf("%");
  return (zone === -1 ? address : address.slice(0, zone)).toLowerCase();
}

/** The eight 16-bit groups of an address that isIP already accepted as IPv6. */
function ipv6Words(address: string): number[] {
  const parseGroups = (part: string): number[] => {
    if (part === "") return [];
    return part.split(":").flatMap((group) => {
      if (!group.includes(".")) return [Number.parseInt(group, 16)];
      const [a = 0, b = 0, c = 0, d = 0] = group.split(".").map(Number);
      return [(a << 8) | b, (c << 8) | d];
    });
  };
  const [head = "", tail] = address.split("::");
  const start = parseGroups(head);
  if (tail === undefined) return start;
  const end = parseGroups(tail);
  return [...start, ...new Array<number>(8 - start.length - end.length).fill(0), ...end];
}

/**
 * The IPv4 address carried by IPv4-mapped, IPv4-compatible, NAT64 (64:ff9b::/96) and 6to4
 * (2002::/16) addresses, which reach that IPv4 host; routable is false for the deprecated
 * compatible form, which no network forwards.
 */
function embeddedIpv4(words: number[]): { address: string; routable: boolean } | null {
  const dotted = (high: number, low: number) =>
    [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");
  const [w0, w1, w2, w3, w4, w5, w6 = 0, w7 = 0] = words;
  const zeroPrefix = w0 === 0 && w1 === 0 && w2 === 0 && w3 === 0 && w4 === 0;
  if (zeroPrefix && w5 === 0xffff) return { address: dotted(w6, w7), routable: true };
  if (zeroPrefix && w5 === 0 && (w6 !== 0 || w7 > 1)) {
    return { address: dotted(w6, w7), routable: false };
  }
  if (w0 === 0x64 && w1 === 0xff9b && w2 === 0 && w3 === 0 && w4 === 0 && w5 === 0) {
    return { address: dotted(w6, w7), routable: true };
  }
  if (w0 === 0x2002) return { address: dotted(w1 ?? 0, w2 ?? 0), routable: true };
  return null;
}
