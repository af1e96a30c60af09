// ort_run.js JOBS.json - runs each job's model with onnxruntime-node (CPU)
// and prints, for each, one JSON line: {"job": i, "outputs": {name: {"type",
// "dims"}}} or {"job": i, "error": message}. A job is {"model": path,
// "inputs": [{"name", "type" (ORT's: "float32", "int64", "bool"...), "dims",
// "fill" (a number; absent: random in [-1, 1) for floats, 0 otherwise)}]}.
// Used by check_ort_oracle.py; needs NODE_PATH to hold onnxruntime-node.
'use strict';
const fs = require('fs');
const ort = require('onnxruntime-node');

const ARRAYS = {
  float32: Float32Array, float64: Float64Array, int8: Int8Array, uint8: Uint8Array,
  int16: Int16Array, uint16: Uint16Array, int32: Int32Array, uint32: Uint32Array,
  int64: BigInt64Array, uint64: BigUint64Array, bool: Uint8Array, float16: Uint16Array,
};

function tensor(spec) {
  const n = spec.dims.reduce((a, b) => a * b, 1);
  const Arr = ARRAYS[spec.type];
  if (!Arr) throw new Error('input ' + spec.name + ': type ' + spec.type);
  const data = new Arr(n);
  let seed = 12345;
  for (let i = 0; i < n; i++) {
    if (spec.type === 'int64' || spec.type === 'uint64') {
      data[i] = BigInt(spec.fill === undefined ? 0 : spec.fill);
    } else if (spec.fill !== undefined) {
      data[i] = spec.fill;
    } else if (spec.type === 'float32' || spec.type === 'float64') {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      data[i] = seed / 1073741824 - 1;
    }
  }
  return new ort.Tensor(spec.type, data, spec.dims);
}

async function main() {
  const jobs = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
  for (let j = 0; j < jobs.length; j++) {
    const job = jobs[j];
    let line;
    try {
      const session = await ort.InferenceSession.create(job.model, {
        executionProviders: ['cpu'], graphOptimizationLevel: 'disabled',
      });
      const feeds = {};
      for (const spec of job.inputs) feeds[spec.name] = tensor(spec);
      const result = await session.run(feeds);
      const outputs = {};
      for (const [name, t] of Object.entries(result)) outputs[name] = {type: t.type, dims: t.dims};
      line = {job: j, outputs};
      if (session.release) await session.release();
    } catch (e) {
      line = {job: j, error: String(e && e.message ? e.message : e)};
    }
    process.stdout.write(JSON.stringify(line) + '\n');
  }
}

main().catch((e) => {
  process.stderr.write('ort_run.js: ' + e + '\n');
  process.exit(1);
});
