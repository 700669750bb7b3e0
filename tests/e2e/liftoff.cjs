// Loaded into the Node agents the e2e tests start (NODE_OPTIONS=--require, realhosts.run_agent).
// Node 20's V8 compiles hot WebAssembly functions again with TurboFan in background threads, and the
// tree-sitter bash grammar that Qwen Code and Gemini CLI load to read each shell command has a
// function whose TurboFan compile alone took about 1.5 s of a Qwen start's 3.7 s of CPU. Liftoff,
// V8's first tier, runs the same WebAssembly; the flag is refused in NODE_OPTIONS, so it is set here,
// before the agent compiles any. Nothing of the agent's own (its hooks, settings, tools) changes.
require("v8").setFlagsFromString("--liftoff-only");
