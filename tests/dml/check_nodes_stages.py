#!/usr/bin/env python3
"""check_nodes_stages.py DMLTENSOR EP_FAKE_TABLES WORKDIR - every decision
stage of `nodes` shown flipping a node, on small models built here with
onnx.helper: each case is a pair of models that differ in one thing (a
type, the opset, an attribute, ...), and the node's placement and reason
must change as ONNX Runtime's DirectML provider decides (the sources are
named in docs/nodes.md). Kernel creation's DirectML tensor rules are checked
through EP_FAKE_TABLES (tests/dml/ep_fake_tables.c: a tiny table handed in
through dmlt_ep_options.tables), as the generated tables are another
branch's. Prints one line per failure and "N cases agree"; exit 1 on any.
Needs Debian's python3-onnx (run with /usr/bin/python3)."""
import json
import os
import subprocess
import sys

import onnx
from onnx import TensorProto as T, helper as h

FAILURES = []


def model(nodes, inputs, outputs, inits=(), opset=13, domains=(), ir=8):
    g = h.make_graph(nodes, "g", inputs, outputs, initializer=list(inits))
    ops = [h.make_opsetid("", opset)] + [h.make_opsetid(d, 1) for d in domains]
    m = h.make_model(g, opset_imports=ops)
    m.ir_version = ir
    return m


def vi(name, t, shape):
    return h.make_tensor_value_info(name, t, shape)


def run(exe, workdir, name, m, args=()):
    path = os.path.join(workdir, name + ".onnx")
    onnx.save(m, path)
    p = subprocess.run([exe, "nodes", path, *args], capture_output=True, text=True)
    lines = [json.loads(l) for l in p.stdout.splitlines() if l.strip()]
    return p.returncode, [l for l in lines if "summary" not in l], lines[-1]["summary"] if lines else None


def expect(case, node, placement, reason=None, rc=None, got_rc=None):
    ids = [r["id"] for r in node["reasons"]]
    if node["placement"] != placement or (reason is not None and reason not in ids):
        FAILURES.append(f"{case}: {node['path']} {node['op']}: expected {placement}"
                        f"{'/' + reason if reason else ''}, got {node['placement']} {ids}")
    if rc is not None and got_rc != rc:
        FAILURES.append(f"{case}: exit status {got_rc}, expected {rc}")


def unary(op, t, shape, opset=13, **attrs):
    return model([h.make_node(op, ["x"], ["y"], **attrs)], [vi("x", t, shape)],
                 [vi("y", t, None)], opset=opset)


def cases(exe, wd):
    n = 0
    # 1. kernel lookup, type constraints: Relu-13 takes float16/float only
    for t, want, why in ((T.FLOAT, "dml", None), (T.INT32, "cpu", "type_not_supported")):
        rc, recs, _ = run(exe, wd, f"type_{t}", unary("Relu", t, [2, 3]))
        expect("Relu-13 type", recs[0], want, why)
        n += 1
    # a float64 Add: Add-14 takes no DOUBLE
    for t, want in ((T.FLOAT, "dml"), (T.DOUBLE, "cpu")):
        m = model([h.make_node("Add", ["a", "b"], ["y"])], [vi("a", t, [4]), vi("b", t, [4])],
                  [vi("y", t, None)], opset=14)
        rc, recs, _ = run(exe, wd, f"add_{t}", m)
        expect("Add-14 float64", recs[0], want, None if want == "dml" else "type_not_supported")
        n += 1
    # 2. the since version must equal a registration's: Conv-11 yes, Conv-22 no
    for opset, want, why in ((13, "dml", None), (22, "cpu", "opset_not_registered")):
        m = model([h.make_node("Conv", ["x", "w"], ["y"])],
                  [vi("x", T.FLOAT, [1, 2, 5, 5])], [vi("y", T.FLOAT, None)],
                  [h.make_tensor("w", T.FLOAT, [3, 2, 3, 3], [0.0] * 54)], opset=opset)
        rc, recs, _ = run(exe, wd, f"conv_{opset}", m)
        expect(f"Conv at opset {opset}", recs[0], want, why)
        if recs[0]["since_version"] != (11 if opset == 13 else 22):
            FAILURES.append(f"Conv at opset {opset}: since_version {recs[0]['since_version']}")
        n += 1
    # 3. a support query: MaxPool's storage_order=1, Resize's cubic mode
    for so, want in ((0, "dml"), (1, "cpu")):
        m = unary("MaxPool", T.FLOAT, [1, 1, 4, 4], kernel_shape=[2, 2], storage_order=so)
        rc, recs, _ = run(exe, wd, f"maxpool_{so}", m)
        expect(f"MaxPool storage_order={so}", recs[0], want,
               None if want == "dml" else "query_rejected")
        n += 1
    # 4. a required constant CPU input that is no initializer: Reshape's shape
    for const in (True, False):
        inputs = [vi("x", T.FLOAT, [2, 6])] + ([] if const else [vi("s", T.INT64, [2])])
        inits = [h.make_tensor("s", T.INT64, [2], [3, 4])] if const else []
        m = model([h.make_node("Reshape", ["x", "s"], ["y"])], inputs,
                  [vi("y", T.FLOAT, None)], inits)
        rc, recs, _ = run(exe, wd, f"reshape_{const}", m)
        expect("Reshape shape " + ("initializer" if const else "graph input"), recs[0],
               "dml" if const else "dml_kernel", None if const else "cpu_input_not_constant")
        n += 1
    # 5. a symbolic dim (static once bound with --dim), a 0 dim
    m = unary("Relu", T.FLOAT, ["batch", 3])
    rc, recs, _ = run(exe, wd, "sym", m)
    expect("symbolic dim", recs[0], "dml_kernel", "dynamic_shape")
    rc, recs, _ = run(exe, wd, "sym", m, ["--dim", "batch=2"])
    expect("symbolic dim bound", recs[0], "dml")
    rc, recs, _ = run(exe, wd, "zero", unary("Relu", T.FLOAT, [0, 3]))
    expect("0 dim", recs[0], "dml_kernel", "zero_dim")
    n += 3
    # 6. an If anywhere in the model: no graph fusion at all
    branch = lambda v: h.make_graph([h.make_node("Identity", ["x"], ["o"])], "b", [],
                                    [vi("o", T.FLOAT, [2, 3])])
    relu = h.make_node("Relu", ["x"], ["y"])
    iff = h.make_node("If", ["c"], ["z"], then_branch=branch(1), else_branch=branch(2))
    for with_if in (False, True):
        nodes = [relu] + ([iff] if with_if else [])
        ins = [vi("x", T.FLOAT, [2, 3])] + ([vi("c", T.BOOL, [])] if with_if else [])
        outs = [vi("y", T.FLOAT, None)] + ([vi("z", T.FLOAT, [2, 3])] if with_if else [])
        rc, recs, _ = run(exe, wd, f"if_{with_if}", model(nodes, ins, outs))
        expect("If in the model" if with_if else "no If", recs[0],
               "dml_kernel" if with_if else "dml", "graph_has_subgraphs" if with_if else None)
        if with_if:
            expect("the If itself", recs[1], "dml_kernel", "control_flow")
            if not (recs[2]["path"].startswith("graph.node[1] (If).") and
                    recs[2]["path"].endswith("_branch.node[0]")):
                FAILURES.append(f"If's branch node path: {recs[2]['path']}")
        n += 1
    # 7. a rank-9 tensor: the EP refuses more than 8 dims
    for rank, want in ((8, "dml"), (9, "fails")):
        rc, recs, s = run(exe, wd, f"rank{rank}", unary("Relu", T.FLOAT, [1] * rank))
        expect(f"rank {rank}", recs[0], want, None if rank == 8 else "rank_too_large",
               0 if rank == 8 else 1, rc)
        if rank == 9 and (s["first_failure"] or {}).get("path") != "graph.node[0]":
            FAILURES.append(f"rank 9: first_failure {s['first_failure']}")
        n += 1
    # 8. an op of another domain the provider has no kernel for
    m = model([h.make_node("Foo", ["x"], ["y"], domain="custom")], [vi("x", T.FLOAT, [2])],
              [vi("y", T.FLOAT, [2])], domains=["custom"])
    rc, recs, _ = run(exe, wd, "custom", m)
    expect("custom.Foo", recs[0], "cpu", "not_registered")
    if recs[0]["op"] != "custom.Foo":
        FAILURES.append(f"custom.Foo: op {recs[0]['op']}")
    n += 1
    # 9. the CPU-preferred pass: a Cast of a Shape result stays on the CPU;
    # a Cast of a tensor on DirectML does not (and Shape folds once bound)
    m = model([h.make_node("Shape", ["x"], ["s"]), h.make_node("Cast", ["s"], ["y"], to=T.FLOAT)],
              [vi("x", T.FLOAT, ["n", 3])], [vi("y", T.FLOAT, None)])
    rc, recs, s = run(exe, wd, "shape_cast", m)
    expect("Cast of Shape", recs[1], "cpu", "cpu_preferred")
    expect("Shape", recs[0], "dml_kernel", "graph_not_supported")
    rc, recs, _ = run(exe, wd, "shape_cast", m, ["--dim", "n=4"])
    expect("Shape bound: folded", recs[0], "folded")
    expect("Cast of a folded Shape: folded", recs[1], "folded")
    m = model([h.make_node("Relu", ["x"], ["r"]), h.make_node("Cast", ["r"], ["y"], to=T.FLOAT16)],
              [vi("x", T.FLOAT, ["n", 3])], [vi("y", T.FLOAT16, None)])
    rc, recs, s = run(exe, wd, "relu_cast", m)
    expect("Cast of Relu", recs[1], "dml_kernel", "dynamic_shape")
    n += 3
    # 10. copies: a CPU node between two DirectML nodes is two copies
    m = model([h.make_node("Relu", ["x"], ["a"]), h.make_node("Foo", ["a"], ["b"], domain="custom"),
               h.make_node("Relu", ["b"], ["y"])],
              [vi("x", T.FLOAT, [2])], [vi("y", T.FLOAT, [2])], domains=["custom"])
    m.graph.value_info.append(vi("b", T.FLOAT, [2]))
    rc, recs, s = run(exe, wd, "copies", m)
    if s["copies"] != 2 or s["placements"]["cpu"] != 1 or s["cpu_ops"] != {"custom.Foo": 1}:
        FAILURES.append(f"copies: {s['copies']} copies, {s['placements']}, {s['cpu_ops']}")
    # --require dml: exit 1 unless every node is folded or dml
    rc, recs, s = run(exe, wd, "copies", m, ["--require", "dml"])
    if rc != 1:
        FAILURES.append(f"--require dml with a cpu node: exit status {rc}")
    rc, recs, s = run(exe, wd, "type_1", unary("Relu", T.FLOAT, [2, 3]), ["--require", "dml"])
    if rc != 0:
        FAILURES.append(f"--require dml, every node dml: exit status {rc}")
    n += 1
    # kernel creation with the real tables, where they cannot decide: an
    # INT64 tensor an operator's table does not list (the provider's 64-bit
    # handling is not modelled) and an operator the provider picks between
    # (Pow: CONSTANT_POW or POW) are unknown, never fails
    m = model([h.make_node("TopK", ["x", "k"], ["v", "i"])], [vi("x", T.FLOAT, [1, 8])],
              [vi("v", T.FLOAT, None), vi("i", T.INT64, None)],
              [h.make_tensor("k", T.INT64, [1], [3])], opset=11)
    rc, recs, _ = run(exe, wd, "topk_int64", m)
    expect("TopK's INT64 indices", recs[0], "unknown", "data_type")
    m = model([h.make_node("Pow", ["a", "b"], ["y"])], [vi("a", T.INT32, [4]), vi("b", T.INT32, [4])],
              [vi("y", T.INT32, None)], opset=15)
    rc, recs, _ = run(exe, wd, "pow_int32", m)
    expect("Pow int32 (two DirectML operators)", recs[0], "unknown", "data_type")
    n += 2
    # 11. a message cites the registration it read where the source has it
    # (microsoft/onnxruntime@12dfe2859c85, lines read from the file itself):
    # Relu-13 OperatorRegistration.cpp:1059, Shape-13 :1106 (NotSupported),
    # Einsum-12's query QueryEinSum (DmlOperatorEinSum.cpp:406), DFT-17 DmlDFT.h:1114 (its factory)
    relu = ("type_6", unary("Relu", T.INT32, [2, 3]), "type_not_supported",
            "supportedTypeListFloat16to32 (OperatorRegistration.cpp:1059)")
    shape = ("shape_13", model([h.make_node("Shape", ["x"], ["y"])], [vi("x", T.FLOAT, ["n", 3])],
                               [vi("y", T.INT64, None)]),
             "graph_not_supported", "(REG_INFO, OperatorRegistration.cpp:1106)")
    einsum = ("einsum_12", model([h.make_node("Einsum", ["a", "b", "c"], ["y"],
                                              equation="ij,jk,kl->il")],
                                 [vi("a", T.FLOAT, [2, 3]), vi("b", T.FLOAT, [3, 4]),
                                  vi("c", T.FLOAT, [4, 5])], [vi("y", T.FLOAT, None)], opset=12),
              "query_rejected", "QueryEinSum (DmlOperatorEinSum.cpp:406 at 12dfe2859c85)")
    dft = ("dft_17", model([h.make_node("DFT", ["x"], ["y"])], [vi("x", T.FLOAT, [1, 8, 1])],
                           [vi("y", T.FLOAT, None)], opset=17),
           "graph_not_supported", "supportsGraph false (FACTORY, DmlDFT.h:1114)")
    for name, m, rid, cite in (relu, shape, einsum, dft):
        rc, recs, _ = run(exe, wd, name, m)
        msgs = [r["message"] for r in recs[0]["reasons"] if r["id"] == rid]
        if not any(cite in x for x in msgs):
            FAILURES.append(f"{name}: no {rid} message citing {cite!r}: {msgs}")
        n += 1
    return n + revision_cases(exe, wd) + query_cases(exe, wd)


def revision_cases(exe, wd):
    """12. what 12dfe2859c85's registrations changed (each was cpu before): Transpose-21,
    DFT-20, If with a sequence output (IsCpuOnDmlOperator), QAttention's and
    MatMulNBits' support queries."""
    n = 0
    rc, recs, _ = run(exe, wd, "transpose_21", unary("Transpose", T.FLOAT, [2, 3], opset=21))
    expect("Transpose-21 (REG_INFO(21, Transpose))", recs[0], "dml")
    m = model([h.make_node("DFT", ["x", "", "ax"], ["y"])],
              [vi("x", T.FLOAT, [1, 8, 1]), vi("ax", T.INT64, [])], [vi("y", T.FLOAT, [1, 8, 2])],
              inits=[h.make_tensor("ax", T.INT64, [], [1])], opset=20)
    rc, recs, _ = run(exe, wd, "dft_20", m)
    expect("DFT-20 (RegisterDFTKernel(registry, 20))", recs[0], "dml_kernel", "graph_not_supported")
    seq = lambda: h.make_graph([h.make_node("SequenceConstruct", ["x"], ["o"])], "b", [],
                               [h.make_tensor_sequence_value_info("o", T.FLOAT, [2, 3])])
    m = model([h.make_node("If", ["c"], ["z"], then_branch=seq(), else_branch=seq())],
              [vi("x", T.FLOAT, [2, 3]), vi("c", T.BOOL, [])],
              [h.make_tensor_sequence_value_info("z", T.FLOAT, [2, 3])], opset=19)
    rc, recs, _ = run(exe, wd, "if_sequence", m)
    expect("If with a sequence output", recs[0], "dml_kernel", "control_flow")
    opt = lambda: h.make_graph([h.make_node("Optional", ["x"], ["o"])], "b", [],
                               [h.make_value_info("o", h.make_optional_type_proto(
                                   h.make_tensor_type_proto(T.FLOAT, [2, 3])))])
    m = model([h.make_node("If", ["c"], ["z"], then_branch=opt(), else_branch=opt())],
              [vi("x", T.FLOAT, [2, 3]), vi("c", T.BOOL, [])],
              [h.make_value_info("z", h.make_optional_type_proto(
                  h.make_tensor_type_proto(T.FLOAT, [2, 3])))], opset=19)
    rc, recs, _ = run(exe, wd, "if_optional", m)
    expect("If with an optional output (V: tensors and sequences only)", recs[0], "cpu",
           "type_not_supported")
    n += 4
    for rot, want in ((0, "dml"), (1, "cpu")):
        node = h.make_node("QAttention", ["x", "w", "b", "s", "ws"], ["y"], domain="com.microsoft",
                           num_heads=2, do_rotary=rot)
        m = model([node], [vi("x", T.UINT8, [1, 4, 8]), vi("w", T.UINT8, [8, 24]),
                           vi("b", T.FLOAT, [24]), vi("s", T.FLOAT, []), vi("ws", T.FLOAT, [])],
                  [vi("y", T.FLOAT, [1, 4, 8])], domains=["com.microsoft"])
        rc, recs, _ = run(exe, wd, f"qattention_{rot}", m)
        expect(f"QAttention do_rotary={rot}", recs[0], want, "query_rejected" if rot else None)
        n += 1
    # a registration without a query takes any input count (QuerySlice's "at most 5" is
    # Slice's alone): a 6-input Concat runs on DirectML
    ins = [f"x{i}" for i in range(6)]
    m = model([h.make_node("Concat", ins, ["y"], axis=0)], [vi(x, T.FLOAT, [1, 4]) for x in ins],
              [vi("y", T.FLOAT, [6, 4])])
    rc, recs, _ = run(exe, wd, "concat_6", m)
    expect("Concat of 6 inputs (no support query)", recs[0], "dml")
    n += 1
    # QueryLayerNormalization is GetOutputCount() == 1 only (a bias is optional); ORT's
    # ONNX-domain SimplifiedLayerNormalization (since 1) uses it too
    for op, ins, outs, want in (("LayerNormalization", ["x", "s"], ["y"], "dml"),
                                ("LayerNormalization", ["x", "s"], ["y", "mean"], "cpu"),
                                ("SimplifiedLayerNormalization", ["x", "s"], ["y"], "dml")):
        m = model([h.make_node(op, ins, outs, axis=-1)],
                  [vi("x", T.FLOAT, [2, 4]), vi("s", T.FLOAT, [4])],
                  [vi("y", T.FLOAT, [2, 4])] + [vi(o, T.FLOAT, [2, 1]) for o in outs[1:]],
                  opset=17)
        rc, recs, _ = run(exe, wd, f"{op}_{len(outs)}", m)
        expect(f"{op} without a bias, {len(outs)} output(s)", recs[0], want,
               "query_rejected" if want == "cpu" else None)
        n += 1
    # DequantizeLinear-21 takes INT4 (supportedTypeListDequantizeLinear21) and the provider
    # maps it to DML_TENSOR_DATA_TYPE_INT4, whose device support is not modelled: unknown
    for t, want in ((T.INT8, "dml"), (22, "unknown")):  # 22: INT4 (onnx 1.12 has no name)
        m = model([h.make_node("DequantizeLinear", ["x", "s"], ["y"])],
                  [vi("x", t, [4, 8]), vi("s", T.FLOAT, [])], [vi("y", T.FLOAT, [4, 8])],
                  opset=21)
        rc, recs, _ = run(exe, wd, f"dequantize_21_{t}", m)
        expect(f"DequantizeLinear-21 of type {t}", recs[0], want,
               "type_not_supported" if want == "unknown" else None)
        n += 1
    for bits, k, want in ((4, 32, "dml"), (8, 32, "dml"), (2, 32, "cpu"), (4, 40, "cpu")):
        node = h.make_node("MatMulNBits", ["a", "b", "s"], ["y"], domain="com.microsoft", K=k, N=8,
                           bits=bits, block_size=16)
        m = model([node], [vi("a", T.FLOAT, [2, k]), vi("b", T.UINT8, [8, 2, 8]),
                           vi("s", T.FLOAT, [16])], [vi("y", T.FLOAT, [2, 8])],
                  domains=["com.microsoft"])
        rc, recs, _ = run(exe, wd, f"matmulnbits_{bits}_{k}", m)
        expect(f"MatMulNBits bits={bits} K={k} block_size=16", recs[0], want,
               "query_rejected" if want == "cpu" else None)
        n += 1
    return n


def query_pair(exe, wd, name, models):
    """Each (label, model, placement[, text]) of one support query: a reason
    query_rejected wherever the provider does not take the node (its message
    holding text, where given)."""
    for label, m, want, *text in models:
        rc, recs, _ = run(exe, wd, f"{name}_{label}", m)
        taken = want in ("dml", "dml_kernel")
        expect(f"{name} {label}", recs[0], want, None if taken else "query_rejected")
        msgs = [r["message"] for r in recs[0]["reasons"] if r["id"] == "query_rejected"]
        if text and not any(text[0] in x for x in msgs):
            FAILURES.append(f"{name} {label}: no query_rejected message holding {text[0]!r}")
    return len(models)


def query_cases(exe, wd):
    """13. the support queries read at 12dfe2859c85 (DmlOperator*.cpp), each taking one
    node and refusing another; an int attribute is read as int32 (its low 32 bits)."""
    ms = ["com.microsoft"]
    n = 0
    for op in ("ScatterElements", "ScatterND"):  # QueryScatter: reduction "none" only
        cases = []
        for red in (None, "none", "add", "mul"):
            kw = {"reduction": red} if red else {}
            ind = (vi("i", T.INT32, [1, 3]) if op == "ScatterElements" else
                   vi("i", T.INT64, [1, 1]))
            m = model([h.make_node(op, ["x", "i", "u"], ["y"], **kw)],
                      [vi("x", T.FLOAT, [4, 3]), ind, vi("u", T.FLOAT, [1, 3])],
                      [vi("y", T.FLOAT, [4, 3])], opset=16)
            cases.append((red or "default", m, "dml" if red in (None, "none") else "cpu"))
        n += query_pair(exe, wd, op, cases)
    ein = lambda eq, k: model([h.make_node("Einsum", [f"x{i}" for i in range(k)], ["y"],
                                           equation=eq)],
                              [vi(f"x{i}", T.FLOAT, [3, 3]) for i in range(k)],
                              [vi("y", T.FLOAT, None)], opset=12)
    n += query_pair(exe, wd, "Einsum", [  # QueryEinSum: parsed, no ellipsis, <= 2 inputs
        ("matmul", ein("ij,jk->ik", 2), "dml"), ("transpose", ein("ij->ji", 1), "dml"),
        ("implicit", ein("ij,jk", 2), "dml"), ("three", ein("ij,jk,kl->il", 3), "cpu"),
        ("ellipsis", ein("...j,jk->...k", 2), "cpu"),
        ("new_output_label", ein("ij,jk->iz", 2), "unknown", "OperatorHelper.cpp:1418")])

    def lstm(layout):
        kw = {} if layout is None else {"layout": layout}
        return model([h.make_node("LSTM", ["x", "w", "r"], ["y"], hidden_size=2, **kw)],
                     [vi("x", T.FLOAT, [2, 1, 3]), vi("w", T.FLOAT, [1, 8, 3]),
                      vi("r", T.FLOAT, [1, 8, 2])], [vi("y", T.FLOAT, [2, 1, 1, 2])], opset=14)
    # QueryRecurrentNeuralNetwork: layout 0 only (LSTM's kernel is not in the fused graph:
    # DmlGraphSupport N, so a taken LSTM is dml_kernel)
    n += query_pair(exe, wd, "LSTM", [
        ("default", lstm(None), "dml_kernel"), ("layout1", lstm(1), "cpu"),
        ("layout2^32", lstm(1 << 32), "dml_kernel")])
    pad = lambda pads: model([h.make_node("Pad", ["x"], ["y"], pads=pads)],
                             [vi("x", T.FLOAT, [2, 3])], [vi("y", T.FLOAT, None)], opset=10)
    n += query_pair(exe, wd, "Pad-2", [  # QueryPad: no negative pad
        ("positive", pad([0, 1, 0, 1]), "dml"), ("negative", pad([0, -1, 0, 1]), "cpu")])
    sln = lambda outs: model([h.make_node("SkipLayerNormalization", ["x", "s", "g", "b"], outs,
                                          domain="com.microsoft")],
                             [vi("x", T.FLOAT, [1, 2, 4]), vi("s", T.FLOAT, [1, 2, 4]),
                              vi("g", T.FLOAT, [4]), vi("b", T.FLOAT, [4])],
                             [vi(o, T.FLOAT, [1, 2, 1] if o in ("mean", "isv") else [1, 2, 4])
                              for o in outs if o], domains=ms)
    n += query_pair(exe, wd, "SkipLayerNormalization", [  # no mean, no inv_std_var
        ("y", sln(["y"]), "dml"), ("y_sum", sln(["y", "", "", "sum"]), "dml"),
        ("mean", sln(["y", "mean"]), "cpu"), ("inv_std_var", sln(["y", "", "isv"]), "cpu")])
    qls = lambda k: model([h.make_node("QLinearSigmoid", ["x", "xs", "xz", "ys", "yz"][:k], ["y"],
                                       domain="com.microsoft")],
                          [vi("x", T.UINT8, [2, 3]), vi("xs", T.FLOAT, []), vi("xz", T.UINT8, []),
                           vi("ys", T.FLOAT, []), vi("yz", T.UINT8, [])][:k],
                          [vi("y", T.UINT8, [2, 3])], domains=ms)
    n += query_pair(exe, wd, "QLinearSigmoid", [  # both zero points given
        ("5_inputs", qls(5), "dml"), ("4_inputs", qls(4), "cpu")])

    def attention(ins=("x", "w", "b"), outs=("y",), **kw):
        shapes = {"x": [1, 4, 8], "w": [8, 24], "b": [24], "m": [1, 4], "past": [2, 1, 2, 0, 4]}
        return model([h.make_node("Attention", list(ins), list(outs), domain="com.microsoft",
                                  num_heads=2, **kw)],
                     [vi(i, T.INT32 if i == "m" else T.FLOAT, shapes[i]) for i in ins if i],
                     [vi(o, T.FLOAT, [1, 4, 8] if o == "y" else [2, 1, 2, 4, 4]) for o in outs],
                     domains=ms)
    n += query_pair(exe, wd, "Attention", [  # no past, present, unidirectional, rotary
        ("plain", attention(), "dml"),
        ("past", attention(("x", "w", "b", "m", "past")), "cpu"),
        ("present", attention(outs=("y", "present")), "cpu"),
        ("unidirectional", attention(unidirectional=1), "cpu"),
        ("do_rotary_2^32", attention(do_rotary=1 << 32), "dml")])
    mp = lambda so: unary("MaxPool", T.FLOAT, [1, 1, 4, 4], kernel_shape=[2, 2], storage_order=so)
    n += query_pair(exe, wd, "MaxPool", [  # GetOptionalAttribute<int>: the low 32 bits
        ("storage_order_2^32", mp(1 << 32), "dml"),
        ("storage_order_2^32+1", mp((1 << 32) + 1), "cpu", "(narrowed to 32 bits there)")])
    return n


def fake_tables(tool, wd):
    """Kernel creation against a tiny DirectML table (ep_fake_tables.c)."""
    n = 0
    for rank, want in ((4, "dml"), (5, "fails/dimension_count")):
        m = model([h.make_node("MatMul", ["a", "b"], ["y"])],
                  [vi("a", T.FLOAT, [1] * (rank - 2) + [2, 3]),
                   vi("b", T.FLOAT, [1] * (rank - 2) + [3, 4])], [vi("y", T.FLOAT, None)])
        path = os.path.join(wd, f"matmul{rank}.onnx")
        onnx.save(m, path)
        p = subprocess.run([tool, path, f"0={want}"], capture_output=True, text=True)
        if p.returncode:
            FAILURES.append(f"{rank}-D MatMul with GEMM's 4-D rule: {p.stderr.strip()}")
        n += 1
    path = os.path.join(wd, "relu_fl.onnx")
    onnx.save(unary("Relu", T.FLOAT, [2, 3]), path)
    for level, want in (("6_1", "dml"), ("5_0", "fails/feature_level")):
        p = subprocess.run([tool, path, f"--level={level}", f"0={want}"], capture_output=True,
                           text=True)
        if p.returncode:
            FAILURES.append(f"Relu at feature level {level}: {p.stderr.strip()}")
        n += 1
    path = os.path.join(wd, "relu_f16.onnx")
    onnx.save(unary("Relu", T.FLOAT16, [2, 3]), path)
    p = subprocess.run([tool, path, "0=fails/data_type"], capture_output=True, text=True)
    if p.returncode:
        FAILURES.append(f"float16 Relu with a float32-only rule: {p.stderr.strip()}")
    return n + 1


def main():
    exe, tool, wd = sys.argv[1:4]
    os.makedirs(wd, exist_ok=True)
    n = cases(exe, wd) + fake_tables(tool, wd)
    for f in FAILURES:
        print(f)
    print(f"{n - len(FAILURES)} of {n} cases agree" if FAILURES else f"{n} cases agree")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
