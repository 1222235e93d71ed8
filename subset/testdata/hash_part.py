"""The rule of subset.Hash in Python: hash_part(salt, fractions, id) is the
part subset.HashPart(subset.NewHash(salt, *fractions), id) gives, and
siphash24 the hash. TestHashPartPython checks it against the kit.

Run as a script, it prints "ready 1", then answers each line of JSON
{"salt": s, "fractions": [...], "id": "..."} with {"hash": h, "part": p}.
"""
import struct

def siphash24(key, msg):  # SipHash-2-4 of msg (bytes) under a 16-byte key
    M = 2**64 - 1
    rotl = lambda x, b: ((x << b) | (x >> (64 - b))) & M
    k0, k1 = struct.unpack("<QQ", key)
    v = [k0 ^ 0x736F6D6570736575, k1 ^ 0x646F72616E646F6D,
         k0 ^ 0x6C7967656E657261, k1 ^ 0x7465646279746573]
    def rounds(n):
        for _ in range(n):
            v[0] = (v[0] + v[1]) & M; v[1] = rotl(v[1], 13) ^ v[0]; v[0] = rotl(v[0], 32)
            v[2] = (v[2] + v[3]) & M; v[3] = rotl(v[3], 16) ^ v[2]
            v[0] = (v[0] + v[3]) & M; v[3] = rotl(v[3], 21) ^ v[0]
            v[2] = (v[2] + v[1]) & M; v[1] = rotl(v[1], 17) ^ v[2]; v[2] = rotl(v[2], 32)
    tail = len(msg) % 8
    words = [struct.unpack("<Q", msg[i:i + 8])[0] for i in range(0, len(msg) - tail, 8)]
    words.append(int.from_bytes(msg[len(msg) - tail:], "little") | (len(msg) & 0xFF) << 56)
    for m in words:
        v[3] ^= m; rounds(2); v[0] ^= m
    v[2] ^= 0xFF; rounds(4)
    return v[0] ^ v[1] ^ v[2] ^ v[3]

def hash_part(salt, fractions, id):  # subset.HashPart(subset.NewHash(salt, fractions...), id)
    K = b"obskit/hashsplit"
    key = struct.pack("<QQ", siphash24(K, salt.encode() + b"\0"), siphash24(K, salt.encode() + b"\1"))
    u = (siphash24(key, id.encode()) >> 11) / 2**53
    cuts = list(fractions) if sum(fractions) < 1 - 1e-9 else list(fractions[:-1])
    total = 0.0
    for p, f in enumerate(cuts):
        total += f
        if u < total:
            return p
    return len(cuts)


def main():
    import json
    import sys

    print("ready 1", flush=True)
    for line in sys.stdin:
        req = json.loads(line)
        K = b"obskit/hashsplit"
        salt = req["salt"].encode()
        key = struct.pack("<QQ", siphash24(K, salt + b"\0"), siphash24(K, salt + b"\1"))
        out = {"hash": siphash24(key, req["id"].encode()), "part": hash_part(req["salt"], req["fractions"], req["id"])}
        print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
