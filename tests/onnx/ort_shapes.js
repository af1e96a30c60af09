// ort_shapes.js - for tests/onnx/check_infer_ort.py: reads JSON lines
// {"path": MODEL, "inputs": {NAME: {"type": "float32"|"int64"|"bool",
// "dims": [...]}}} on stdin, runs each model once with ONNX Runtime (CPU,
// graph optimisations off, inputs of zeros) and writes one JSON line each:
// {"outputs": {NAME: [dims...]}} or {"error": "..."}.
// Run with NODE_PATH holding onnxruntime-node.
'use strict';
const ort = require('onnxruntime-node');
const readline = require('readline');

function zeros(type, dims) {
  const n = dims.reduce((a, b) => a * b, 1);
  if (type === 'int64') return new BigInt64Array(n);
  if (type === 'bool') return new Uint8Array(n);
  return new Float32Array(n);
}

async function one(job) {
  try {
    const s = await ort.InferenceSession.create(job.path, {graphOptimizationLevel: 'disabled',
                                                           logSeverityLevel: 3});
    const feeds = {};
    for (const [k, v] of Object.entries(job.inputs))
      feeds[k] = new ort.Tensor(v.type, zeros(v.type, v.dims), v.dims);
    const r = await s.run(feeds);
    const out = {};
    for (const k of Object.keys(r)) out[k] = Array.from(r[k].dims, Number);
    return {outputs: out};
  } catch (e) {
    return {error: String((e && e.message) || e).slice(0, 300)};
  }
}

(async () => {
  const rl = readline.createInterface({input: process.stdin});
  for await (const line of rl) {
    if (!line.trim()) continue;
    process.stdout.write(JSON.stringify(await one(JSON.parse(line))) + '\n');
  }
})();
