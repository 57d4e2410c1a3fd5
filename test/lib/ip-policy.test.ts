import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { createIpPolicy } from "../../src/lib/ip-policy.ts";

const production = createIpPolicy({ allowPrivateNetworks: false });

describe("ip policy in production", () => {
  test.each([
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["10.0.0.1", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "cloud metadata"],
    ["169.254.170.2", "cloud metadata"],
    ["100.100.100.200", "cloud metadata"],
    ["169.254.1.1", "link-local"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["240.0.0.1", "reserved"],
    ["192.0.2.7", "reserved"],
    ["198.18.0.1", "reserved"],
    ["::", "unspecified"],
    ["::1", "loopback"],
    ["0:0:0:0:0:0:0:1", "loopback"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:a9fe:a9fe", "cloud metadata"],
    ["::7f00:1", "loopback"],
    ["::808:808", "reserved"],
    ["64:ff9b::a00:1", "private"],
    ["64:ff9b::127.0.0.1", "loopback"],
    ["2002:c0a8:0101::1", "private"],
    ["2002:7f00:1::", "loopback"],
    ["fc00::1", "private"],
    ["fd12:3456::1", "private"],
    ["fd00:ec2::254", "cloud metadata"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["FE80::ABCD", "link-local"],
    ["fec0::1", "private"],
    ["ff02::1", "multicast"],
    ["2001:db8::1", "reserved"],
    ["2001:0:4136:e378::1", "reserved"],
    ["100::1", "reserved"],
    ["64:ff9b:1::a", "reserved"],
  ])("refuses %s as %s", (address, label) => {
    expect(production.addressBlockedReason(address)).toBe(label);
  });

  test.each([
    "93.184.216.34",
    "8.8.8.8",
    "172.32.0.1",
    "100.128.0.1",
    "2606:4700:4700::1111",
    "2a00:1450:4001::200e",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "2002:808:808::1",
  ])("allows the public address %s", (address) => {
    expect(production.addressBlockedReason(address)).toBeNull();
  });

  test("refuses what is not an IP address at all", () => {
    expect(production.addressBlockedReason("example.com")).toBe("invalid");
  });

  test("gives every IPv6 form that embeds an IPv4 address the IPv4 address's verdict", () => {
    const hex = (a: number, b: number) => ((a << 8) | b).toString(16);
    fc.assert(
      fc.property(fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)), ([a, b, c, d]) => {
        const verdict = production.addressBlockedReason(`${a}.${b}.${c}.${d}`);
        expect(production.addressBlockedReason(`::ffff:${a}.${b}.${c}.${d}`)).toBe(verdict);
        expect(production.addressBlockedReason(`::ffff:${hex(a, b)}:${hex(c, d)}`)).toBe(verdict);
        expect(production.addressBlockedReason(`64:ff9b::${hex(a, b)}:${hex(c, d)}`)).toBe(verdict);
        expect(production.addressBlockedReason(`2002:${hex(a, b)}:${hex(c, d)}::1`)).toBe(verdict);
      }),
    );
  });

  test("refuses cloud metadata host names, whatever their case or trailing dot", () => {
    expect(production.hostBlockedReason("metadata.google.internal")).toBe("cloud metadata");
    expect(production.hostBlockedReason("METADATA.Google.Internal.")).toBe("cloud metadata");
    expect(production.hostBlockedReason("instance-data")).toBe("cloud metadata");
    expect(production.hostBlockedReason("example.com")).toBeNull();
  });
});

describe("ip policy in development", () => {
  test("allows everything", () => {
    const development = createIpPolicy({ allowPrivateNetworks: true });
    for (const address of ["127.0.0.1", "::1", "10.0.0.1", "169.254.169.254", "fe80::1"]) {
      expect(development.addressBlockedReason(address)).toBeNull();
    }
    expect(development.hostBlockedReason("metadata.google.internal")).toBeNull();
  });
});
