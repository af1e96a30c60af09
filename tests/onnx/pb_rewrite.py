"""pb_rewrite.py - rewrites an ONNX model's protobuf wire bytes without
changing what protobuf's rules make of them, or changing it the way those
rules say: the reference is always onnx.load of the rewritten bytes.

parse() turns bytes into a tree of fields using onnx.proto's descriptors
(which length-delimited fields are messages); mutate() applies random
operations to one message of the tree:
  - dup: a length-delimited field is given again at a random later place
    (a message field twice is merged, a repeated one appended, a string's
    last value wins);
  - split: a singular message field becomes two occurrences holding its
    fields' first and second parts (their merge is the field itself).
"""

from google.protobuf.descriptor import FieldDescriptor

import onnx


def varint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def read_varint(b, i):
    x, s = 0, 0
    while True:
        c = b[i]
        i += 1
        x |= (c & 0x7F) << s
        s += 7
        if not c & 0x80:
            return x, i


class Field:
    """number, wt, value (bytes for LEN/fixed, int for varint), children
    (a list of Field when a message), desc (the field's descriptor)."""

    def __init__(self, number, wt, value, desc):
        self.number, self.wt, self.value, self.desc = number, wt, value, desc
        self.children = None

    def encode(self):
        tag = varint(self.number << 3 | self.wt)
        if self.wt == 0:
            return tag + varint(self.value)
        if self.wt == 2:
            body = encode(self.children) if self.children is not None else self.value
            return tag + varint(len(body)) + body
        return tag + self.value


def parse(b, msg_desc):
    fields, i = [], 0
    while i < len(b):
        tag, i = read_varint(b, i)
        number, wt = tag >> 3, tag & 7
        desc = msg_desc.fields_by_number.get(number) if msg_desc else None
        if wt == 0:
            v, i = read_varint(b, i)
            fields.append(Field(number, wt, v, desc))
        elif wt == 2:
            n, i = read_varint(b, i)
            f = Field(number, wt, bytes(b[i:i + n]), desc)
            i += n
            if desc is not None and desc.type == FieldDescriptor.TYPE_MESSAGE:
                f.children = parse(f.value, desc.message_type)
            fields.append(f)
        elif wt == 1:
            fields.append(Field(number, wt, bytes(b[i:i + 8]), desc))
            i += 8
        elif wt == 5:
            fields.append(Field(number, wt, bytes(b[i:i + 4]), desc))
            i += 4
        else:
            raise ValueError(f"wire type {wt}")
    return fields


def encode(fields):
    return b"".join(f.encode() for f in fields)


def messages(fields, out):
    """Every list of fields (a message) in the tree."""
    out.append(fields)
    for f in fields:
        if f.children is not None:
            messages(f.children, out)
    return out


def mutate(fields, rng, ops=3):
    for _ in range(ops):
        msgs = [m for m in messages(fields, []) if m]
        m = rng.choice(msgs)
        k = rng.randrange(len(m))
        f = m[k]
        singular_msg = (f.children is not None and
                        f.desc.label != FieldDescriptor.LABEL_REPEATED)
        if singular_msg and len(f.children) >= 2 and rng.random() < 0.5:
            cut = rng.randrange(1, len(f.children))
            first = Field(f.number, 2, None, f.desc)
            first.children = f.children[:cut]
            second = Field(f.number, 2, None, f.desc)
            second.children = f.children[cut:]
            m[k:k + 1] = [first, second]
        elif f.wt == 2:
            copy = Field(f.number, 2, f.value, f.desc)
            if f.children is not None:
                copy.children = parse(encode(f.children), f.desc.message_type)
            m.insert(rng.randrange(k + 1, len(m) + 1), copy)
    return fields


def rewrite(data, rng, ops=3):
    return encode(mutate(parse(data, onnx.ModelProto.DESCRIPTOR), rng, ops))
