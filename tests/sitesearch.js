// Ask a built site's own search what a reader would: node tests/sitesearch.js SITE QUERY...
// Runs the site's real search worker (Material's, lunr inside, with whatever the site's build put
// in front of it) in a plain context with the worker's globals, feeds it the site's
// search_index.json as the page does, and prints per query the pages in the order the search box
// lists them: [{"query": ..., "pages": [{"location", "title", "score"}, ...]}, ...]
"use strict";
const fs = require("fs");
const path = require("path");
const vm = require("vm");

const [site, ...queries] = process.argv.slice(2);
const workers = path.join(site, "assets", "javascripts", "workers");
const worker = fs.readdirSync(workers).find(name => /^search\..*\.js$/.test(name) && !name.endsWith(".map"));
const index = JSON.parse(fs.readFileSync(path.join(site, "search", "search_index.json"), "utf8"));

const SETUP = 0, QUERY = 2;  // Material's SearchMessageType
const listeners = [];
const replies = [];
const scope = {
  console,
  postMessage: message => replies.push(message),
  addEventListener: (type, listener) => type === "message" && listeners.push(listener),
};
scope.self = scope;
vm.createContext(scope);
vm.runInContext(fs.readFileSync(path.join(workers, worker), "utf8"), scope);

async function ask(message) {
  const before = replies.length;
  for (const listener of listeners) await listener({ data: message });
  while (replies.length === before) await new Promise(resolve => setImmediate(resolve));
  return replies[replies.length - 1];
}

(async () => {
  await ask({ type: SETUP, data: { config: index.config, docs: index.docs, options: { suggest: false } } });
  const answers = [];
  for (const query of queries) {
    const result = await ask({ type: QUERY, data: query });
    // Each group is one page: its sections, best first, and the page itself (the search box shows
    // the page's title over them); the groups come in the order the box lists them.
    const pages = result.data.items.map(group => {
      const page = group.find(item => !item.location.includes("#")) || group[0];
      return { location: page.location.split("#")[0], title: page.title.replace(/<[^>]+>/g, ""),
               score: Math.max(...group.map(item => item.score)) };
    });
    answers.push({ query, pages });
  }
  process.stdout.write(JSON.stringify(answers) + "\n");
})();
