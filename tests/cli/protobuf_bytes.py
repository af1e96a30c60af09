"""protobuf_bytes.py - protobuf's wire format written by hand, for the
tests that build ONNX models byte by byte (damaged, huge, or with exactly
the fields they need): one varint, one length-delimited field."""


def varint(n):
    """n (>= 0) as a base-128 varint."""
    out = bytearray()
    while True:
        b, n = n & 0x7F, n >> 7
        out.append(b | 0x80 if n else b)
        if not n:
            return bytes(out)


def msg(field, payload):
    """A length-delimited field (wire type 2): a message, bytes or a string."""
    return varint(field << 3 | 2) + varint(len(payload)) + payload
