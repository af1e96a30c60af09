#!/usr/bin/env python3
"""check_onnx_merge.py DMLTENSOR DUMP_MODEL [SEED] - protobuf's merge rules,
differentially against python3-onnx (issue 19 item 3).

Models whose wire bytes say the same thing twice, or say it in pieces:
  - real models concatenated (`cat a.onnx b.onnx`: protobuf reads the
    concatenation as the merge of the two), a model with itself;
  - a model's fields duplicated or split at random (pb_rewrite.py: a
    length-delimited field given again later, a singular message split into
    two occurrences), 1 to 6 operations each;
  - the cases issue 19 names: a tensor_type with shape {2} then {3} (reads
    [2, 3]), a type given twice, a Constant's t twice, an attribute's graph
    given twice (its path indices keep running), a oneof case given after
    another (the later clears the earlier).
For each, python3-onnx's onnx.load of the same bytes is the reference:
`dmltensor scan` must give check_onnx_corpus.py's records for it, record for
record, and onnx_model_read (dump_model) check_onnx_model.py's model.

Needs Debian's python3-onnx (run with /usr/bin/python3). Exits 1 on any
difference.
"""
import glob
import os
import random
import sys
import tempfile

import onnx
from onnx import TensorProto, helper

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import check_onnx_corpus  # noqa: E402
import check_onnx_model  # noqa: E402
import make_models  # noqa: E402
import pb_rewrite  # noqa: E402


def field(number, body):
    """A length-delimited field on the wire."""
    return pb_rewrite.varint(number << 3 | 2) + pb_rewrite.varint(len(body)) + body


def named_cases():
    vi = helper.make_tensor_value_info
    cases = {}
    g = helper.make_graph([helper.make_node("Identity", ["x"], ["y"])], "g", [],
                          [vi("y", TensorProto.FLOAT, None)])
    base = helper.make_model(g).SerializeToString()
    # A shape {2} then {3}: ValueInfo.type.tensor_type.shape given twice.
    x = vi("x", TensorProto.FLOAT, [2])
    shape3 = helper.make_tensor_type_proto(TensorProto.FLOAT, [3]).tensor_type.shape
    tt = x.type.tensor_type.SerializeToString() + field(2, shape3.SerializeToString())
    cases["shape_twice"] = splice_graph(base, field(11, field(1, b"x") + field(2, field(1, tt))))
    # A type given twice: elem_type in one, shape in the other.
    t1 = field(1, pb_rewrite.varint(1 << 3) + pb_rewrite.varint(TensorProto.FLOAT))
    t2 = field(1, field(2, shape3.SerializeToString()))
    cases["type_twice"] = splice_graph(base, field(11, field(1, b"x") + field(2, t1) + field(2, t2)))
    # A oneof case after another: sequence_type, then tensor_type.
    seq = helper.make_sequence_type_proto(helper.make_tensor_type_proto(TensorProto.INT8, [4]))
    cases["oneof_later"] = splice_graph(
        base,
        field(11, field(1, b"x") + field(2, seq.SerializeToString() + t2)))
    cases["oneof_back"] = splice_graph(
        base,
        field(11, field(1, b"x") + field(2, t2 + seq.SerializeToString() + t1)))
    # A Constant's t given twice: dims [2] then [3, 4] merge to [2, 3, 4].
    c = helper.make_node("Constant", [], ["c"],
                         value=helper.make_tensor("v", TensorProto.INT64, [2], [1, 2]))
    attr = c.attribute[0].SerializeToString() + field(
        5, helper.make_tensor("w", TensorProto.INT64, [3, 4], [0] * 12).SerializeToString())
    node2 = field(2, b"c") + field(4, b"Constant") + field(5, attr)
    gc = helper.make_graph([], "g", [], [vi("c", TensorProto.INT64, None)])
    cases["constant_t_twice"] = splice_graph(helper.make_model(gc).SerializeToString(),
                                             field(1, node2))
    # An If's then_branch given twice: one graph, its node indices running.
    def branch(name):
        return helper.make_graph([helper.make_node("Identity", ["x"], [name])], "b", [],
                                 [vi(name, TensorProto.FLOAT, [2])])
    iff = helper.make_node("If", ["c"], ["z"], then_branch=branch("t1"), else_branch=branch("e"))
    then2 = helper.make_attribute("then_branch", branch("t2")).SerializeToString()
    then2_g = [f for f in pb_rewrite.parse(then2, onnx.AttributeProto.DESCRIPTOR)
               if f.number == 6][0].encode()
    nb = b""
    for a in iff.attribute:
        ab = a.SerializeToString()
        if a.name == "then_branch":
            ab += then2_g
        nb += field(5, ab)
    nb = field(1, b"c") + field(2, b"z") + field(4, b"If") + nb
    gi = helper.make_graph([], "g", [vi("c", TensorProto.BOOL, []),
                                     vi("x", TensorProto.FLOAT, [2])],
                           [vi("z", TensorProto.FLOAT, None)])
    cases["graph_twice"] = splice_graph(helper.make_model(gi).SerializeToString(), field(1, nb))
    return cases


def splice_graph(model, extra):
    """The model with extra fields appended to its graph (a second graph
    field: merged into the first)."""
    return model + field(7, extra)


def main():
    dmltensor, dump = sys.argv[1], sys.argv[2]
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 19
    rng = random.Random(seed)
    corpus = sorted(glob.glob("/usr/share/libonnx-testdata/**/*.onnx", recursive=True))
    if len(corpus) < 2:
        print("libonnx-testdata is not installed")
        return 1
    with tempfile.TemporaryDirectory() as out:
        make_models.main_into(out)
        made = sorted(glob.glob(os.path.join(out, "*.onnx")))
        files = []

        def write(name, data):
            p = os.path.join(out, "m_" + name + ".onnx")
            with open(p, "wb") as f:
                f.write(data)
            files.append(p)

        def read(p):
            with open(p, "rb") as f:
                return f.read()

        for name, data in named_cases().items():
            write(name, data)
        pool = rng.sample(corpus, 60) + made
        for i in range(40):
            a, b = rng.sample(pool, 2)
            write(f"cat{i}", read(a) + read(b))
        for i, p in enumerate(pool[:10]):
            write(f"self{i}", read(p) + read(p))
        for i, p in enumerate(pool):
            write(f"rw{i}", pb_rewrite.rewrite(read(p), rng, rng.randint(1, 6)))
        print(f"{len(files)} models (seed {seed})")
        bad = check_onnx_corpus.check(dmltensor, files)
        bad = check_onnx_model.check(dump, files) or bad
        return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
