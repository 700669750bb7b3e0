#!/usr/bin/env node
// The built docs site in a real browser: node scripts/site-browser-check.js SITE [PAGE...]
// VIEWPORT=WIDTH sets the window's width (default 1280). Needs Chromium (Debian's package: /usr/bin/chromium, or CHROMIUM=path) and the npm package
// playwright-core where node finds it (NODE_PATH=.../node_modules); .ci/run installs it in a
// scratch folder, never in the repository. Serves SITE on loopback, and at a desktop width checks:
// - every table fits its text column (a wide one scrolls inside it), and no page scrolls sideways;
// - no request leaves loopback (the site works offline: no web fonts, no CDN);
// - searching "install" lists Getting started first, and "--force" finds pages.
// Prints one JSON document of what it measured; exit 1 when a check fails.
"use strict";
const http = require("http");
const fs = require("fs");
const path = require("path");
const { chromium } = require("playwright-core");

const [site, ...asked] = process.argv.slice(2);
const pages = asked.length ? asked : ["", "cli/", "hosts/", "manifest/", "check/", "getting-started/"];
const WIDTH = Number(process.env.VIEWPORT || 1280);
const TYPES = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".json": "application/json",
  ".svg": "image/svg+xml", ".png": "image/png", ".ico": "image/x-icon", ".xml": "text/xml" };

function serve(root) {
  const server = http.createServer((req, res) => {
    let file = path.join(root, decodeURIComponent(new URL(req.url, "http://x").pathname));
    if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, "index.html");
    if (!file.startsWith(root) || !fs.existsSync(file)) { res.writeHead(404); res.end(); return; }
    res.writeHead(200, { "content-type": TYPES[path.extname(file)] || "application/octet-stream" });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise(resolve => server.listen(0, "127.0.0.1", () => resolve(server)));
}

async function tables(page) {
  return page.evaluate(() => {
    const column = document.querySelector(".md-content__inner").getBoundingClientRect();
    const root = document.scrollingElement;
    return {
      column: Math.round(column.width),
      sideways: root.scrollWidth - root.clientWidth,
      tables: [...document.querySelectorAll(".md-typeset table")].map(table => {
        const box = table.getBoundingClientRect();
        const wrap = table.closest(".md-typeset__scrollwrap") || table;
        return { width: Math.round(box.width), right: Math.round(box.right - column.right),
                 content: table.scrollWidth, scrolls: wrap.scrollWidth > wrap.clientWidth || table.scrollWidth > table.clientWidth };
      }),
    };
  });
}

async function search(page, query) {
  // Material's own deep link (?q=): the box opens holding the query, at any window width
  const meta = () => {
    const shown = document.querySelector(".md-search-result__meta");
    return shown && !/Initializing|Type to start/i.test(shown.textContent);
  };
  await page.waitForFunction(meta, null, { timeout: 15000 });
  await page.waitForTimeout(300);  // the list renders after the count
  return page.evaluate(() => ({
    typed: document.querySelector("input.md-search__input").value,
    meta: document.querySelector(".md-search-result__meta").textContent.trim(),
    pages: [...document.querySelectorAll(".md-search-result__item")].map(item => {
      const a = item.querySelector("a");
      return { href: new URL(a.href).pathname, title: (a.querySelector("h1") || a.querySelector("h2") || a).textContent.trim() };
    }),
  }));
}

(async () => {
  const root = path.resolve(site);
  const server = await serve(root);
  const base = `http://127.0.0.1:${server.address().port}/`;
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
                                          args: ["--no-sandbox"] });
  const outside = [];
  const open = async url => {  // a fresh tab per page: an error page leaves nothing behind
    const page = await browser.newPage({ viewport: { width: WIDTH, height: 900 } });
    page.on("request", request => { if (!/^(data|blob):/.test(request.url()) && !request.url().startsWith(base)) outside.push(request.url()); });
    const response = await page.goto(url, { waitUntil: "load" }).catch(() => null);
    return { page, ok: !!response && response.ok() };
  };
  const report = { viewport: WIDTH, pages: {}, outside, search: {} };
  const failures = [];
  for (const name of pages) {
    const { page, ok } = await open(base + name);
    if (!ok) { failures.push(`${name}: no such page`); await page.close(); continue; }
    const measured = await tables(page);
    await page.close();
    report.pages[name || "/"] = measured;
    if (measured.sideways > 0) failures.push(`${name || "/"}: the page scrolls sideways by ${measured.sideways} px`);
    measured.tables.forEach((table, i) => {
      const widest = Math.max(table.width, table.content);  // a table that fits only by scrolling hides columns
      if (widest > measured.column || table.right > 1)
        failures.push(`${name || "/"}: table ${i + 1} is ${widest} px in a ${measured.column} px column`);
    });
  }
  for (const query of ["install", "--force"]) {
    const { page } = await open(`${base}?q=${encodeURIComponent(query)}`);
    report.search[query] = await search(page, query);
    await page.close();
  }
  const first = report.search.install.pages[0];
  if (!first || first.href !== "/getting-started/") failures.push(`search "install" lists ${JSON.stringify(first)} first`);
  if (!report.search["--force"].pages.length) failures.push('search "--force" finds nothing');
  if (outside.length) failures.push(`requests leave loopback: ${outside.slice(0, 3).join(", ")}`);
  report.failures = failures;
  await browser.close();
  server.close();
  process.stdout.write(JSON.stringify(report, null, 1) + "\n");
  process.exit(failures.length ? 1 : 0);
})().catch(error => { console.error(error); process.exit(2); });
