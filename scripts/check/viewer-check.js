// SPDX-License-Identifier: GPL-2.0
//
// Open a trace in speedscope (the npm package) in headless chromium and
// check what the viewer itself parsed, against what was recorded.  Prints
// TAP.  Run by scripts/check/viewer-check.sh, which finds the modules and the
// browser; see Documentation/conversions.rst, "Checked in a browser".
//
//   node viewer-check.js json TRACE.fdr TRACE.json SHOTS_DIR
//	The trace_event JSON of TRACE.fdr (names from TRACE.fdr.names, tasks
//	from TRACE.fdr.tasks when present).  What was recorded comes from
//	llvm-xray fdr-dump (not our reader) and the names and tasks files.
//   node viewer-check.js folded FILE SHOTS_DIR
//	Folded stacks ("a;b;c VALUE" lines): speedscope's weights per stack
//	against the file's.
//
// Environment: TB_VIEWER_MODULES (node_modules holding speedscope and
// puppeteer-core), TB_CHROMIUM (the browser), TB_LLVM_XRAY.
'use strict';

const fs = require('fs');
const http = require('http');
const path = require('path');
const {execFileSync} = require('child_process');

const modules = process.env.TB_VIEWER_MODULES;
const puppeteer = require(path.join(modules, 'puppeteer-core'));
const speedscopeDir = path.join(modules, 'speedscope', 'dist', 'release');

// Pseudo-process of the CPU tracks (userspace/lib/convert/fdr_json.h).
const CPUS_PID = 0x20000000;
const IDLE_TID = 0x40000000;
// The trace's own description (uapi TRACEBUF_FDR_META_TID): no task, no
// event, and its time is not the capture's start.
const META_TID = 0x7ffffffe;
// Kernel id spaces of point events (uapi/linux/tracebuf.h).
const SPACE_FAULT = 5;
const SPACE_TASK = 6;
// Rounding of ts to 1 ns in the JSON, and of doubles.
const EPS_US = 0.002;

let testNo = 0;
let failed = 0;
function ok(cond, what, detail) {
	testNo++;
	if (cond) {
		console.log(`ok ${testNo} ${what}`);
	} else {
		failed++;
		console.log(`not ok ${testNo} ${what}`);
		if (detail)
			for (const l of String(detail).split('\n').slice(0, 30))
				console.log(`# ${l}`);
	}
}

// ---- what was recorded ----

function readNames(file) {
	const names = new Map();	// id -> {name, kid}
	let last = null;
	for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
		const k = /^#\s*kernel id (0x[0-9a-f]+)/.exec(line);
		if (k && last) {
			last.kid = parseInt(k[1], 16);
			continue;
		}
		const m = /^\s*(\d+|0x[0-9a-f]+)\s+(\S.*?)\s*$/i.exec(line);
		if (!m || line.trim().startsWith('#'))
			continue;
		last = {name: m[2], kid: 0};
		names.set(Number(m[1]), last);
	}
	return names;
}

function readTasks(file) {
	const tasks = new Map();	// tid -> {pid, comm}
	if (!fs.existsSync(file))
		return null;
	for (const line of fs.readFileSync(file, 'latin1').split('\n')) {
		const m = /^(\d+) (\d+) (.*)$/.exec(line);
		if (!m)
			continue;
		const comm = m[3].replace(/\\x([0-9a-f]{2})/gi,
			(_, h) => String.fromCharCode(parseInt(h, 16)));
		tasks.set(Number(m[1]), {pid: Number(m[2]), comm});
	}
	return tasks;
}

function cycleFrequency(trace) {
	const b = fs.readFileSync(trace).subarray(0, 32);
	const f = Number(b.readBigUInt64LE(8));
	return f || 1e9;
}

// The records of each thread, in order, from llvm-xray's own dump.
function dumpThreads(trace) {
	const xray = process.env.TB_LLVM_XRAY || 'llvm-xray';
	const text = execFileSync(xray, ['fdr-dump', trace],
		{maxBuffer: 1 << 30, encoding: 'latin1'});
	const threads = new Map();
	let tid = 0, pid = 0, tsc = 0n, cpu = 0, th = null;
	const cpus = new Set();
	const ranOn = new Map();	// pid:tid -> the CPUs of its blocks
	const key = () => `${pid}:${tid}`;
	for (const line of text.split('\n')) {
		let m;
		if ((m = /^<Thread ID: (\d+)>/.exec(line))) {
			tid = Number(m[1]);
			th = null;
		} else if ((m = /^<PID: (\d+)>/.exec(line))) {
			pid = Number(m[1]);
			th = null;
		} else if ((m = /^<CPU: id = (\d+), tsc = (\d+)>/.exec(line))) {
			cpu = Number(m[1]);
			tsc = BigInt(m[2]);
			cpus.add(cpu);
			if (!ranOn.has(key()))
				ranOn.set(key(), new Set());
			ranOn.get(key()).add(cpu);
		} else if ((m = /^<TSC Wrap: base = (\d+)>/.exec(line))) {
			tsc = BigInt(m[1]);
		} else if ((m = /^<Function (Enter|Enter With Arg|Exit|Tail Exit): #(\d+) delta = \+(\d+)>/.exec(line))) {
			tsc += BigInt(m[3]);
			rec({kind: m[1].startsWith('Enter') ? 'enter' : 'exit',
			     id: Number(m[2]), tsc, args: []});
		} else if ((m = /^<Call Argument: data = (\d+)/.exec(line))) {
			th.recs[th.recs.length - 1].args.push(BigInt(m[1]));
		} else if ((m = /^<(Custom|Typed) Event: delta = \+(\d+)/.exec(line))) {
			tsc += BigInt(m[2]);
			rec({kind: 'event', tsc, data: line});
		}
	}
	function rec(r) {
		if (!th) {
			if (!threads.has(key()))
				threads.set(key(), {pid, tid, recs: []});
			th = threads.get(key());
		}
		th.recs.push(r);
	}
	return {threads, cpus, ranOn};
}

// What a viewer must show for one thread: its slices in start order with
// their depth, and its point events.
function model(th, names, us, t0) {
	const space = id => ((names.get(id) || {}).kid >>> 24) & 0xf;
	const nameOf = id => (names.get(id) || {name: `function ${id}`}).name;
	// Our post-processing starts every task with this event, no event of
	// the task's (userspace/lib/convert/fdr_post.h).
	// A task's command name, written as it exits (uapi), names the
	// thread: no event either.
	const recs = th.recs.filter(r => !(r.kind === 'event' &&
		(r.data.includes("data = 'tracebuf: capture start'") ||
		 r.data.includes("data = 'tracebuf: comm "))));
	if (!recs.length)
		return {pid: th.pid, tid: th.tid, slices: [], points: new Map()};
	const first = us(t0);
	const last = us(recs.reduce((a, r) => r.tsc > a ? r.tsc : a, 0n));
	const slices = [], points = new Map();
	const stack = [];
	// Calls running when the capture started: exits with nothing open.
	const pre = [];
	{
		const s = [];
		for (const r of recs) {
			if (r.kind === 'enter') {
				s.push(r.id);
			} else if (r.kind === 'exit') {
				const i = s.lastIndexOf(r.id);
				if (i >= 0)
					s.length = i;
				else if (!s.length)
					pre.unshift(r.id);
			}
		}
	}
	for (const id of pre) {
		const sl = {name: nameOf(id), depth: stack.length, start: first, end: null};
		slices.push(sl);
		stack.push({id, sl});
	}
	for (let i = 0; i < recs.length; i++) {
		const r = recs[i], n = recs[i + 1];
		if (r.kind === 'enter') {
			const sp = space(r.id);
			if ((sp === SPACE_FAULT || sp === SPACE_TASK) && r.args.length &&
			    n && n.kind === 'exit' && n.id === r.id && n.tsc === r.tsc) {
				points.set(nameOf(r.id), (points.get(nameOf(r.id)) || 0) + 1);
				i++;
				continue;
			}
			const sl = {name: nameOf(r.id), depth: stack.length, start: us(r.tsc), end: null};
			slices.push(sl);
			stack.push({id: r.id, sl});
		} else if (r.kind === 'exit') {
			let j = stack.length - 1;
			while (j >= 0 && stack[j].id !== r.id)
				j--;
			if (j < 0) {
				points.set(nameOf(r.id), (points.get(nameOf(r.id)) || 0) + 1);
				continue;
			}
			while (stack.length > j)
				stack.pop().sl.end = us(r.tsc);
		}
	}
	while (stack.length)
		stack.pop().sl.end = last;
	return {pid: th.pid, tid: th.tid, slices, points, first, last};
}

// ---- the viewer ----

function serve(files) {
	const types = {'.html': 'text/html', '.js': 'text/javascript',
		       '.css': 'text/css', '.wasm': 'application/wasm'};
	const server = http.createServer((req, res) => {
		const url = decodeURIComponent(req.url.split('?')[0]);
		let file = files[url];
		if (!file && !url.includes('..'))
			file = path.join(speedscopeDir, url === '/' ? 'index.html' : url);
		fs.readFile(file, (err, data) => {
			if (err) {
				res.writeHead(404);
				res.end();
				return;
			}
			res.writeHead(200, {'Content-Type': types[path.extname(file)] ||
					    'application/octet-stream'});
			res.end(data);
		});
	});
	return new Promise(resolve => server.listen(0, '127.0.0.1',
		() => resolve(server)));
}

// Speedscope keeps its state in modules, not on window.  Its application
// component gets the profile group as a prop ({name, indexToView,
// profiles: [{profile, ...}]}): find it in preact's tree of rendered nodes
// (children "__k", component "__c" in preact 10's builds) and flatten each
// profile's call tree.  Returns null while loading, {error} on an error.
async function parsedProfiles(page) {
	return page.evaluate(() => {
		const root = [...document.querySelectorAll('*')].find(e => e.__k);
		let app = null;
		const walk = v => {
			if (!v || typeof v !== 'object' || app)
				return;
			if (v.props && 'profileGroup' in v.props && 'loading' in v.props)
				app = v.props;
			if (Array.isArray(v.__k))
				v.__k.forEach(walk);
		};
		walk(root && root.__k);
		if (!app)
			return {error: 'no speedscope application in the page'};
		if (app.error)
			return {error: 'speedscope shows an error'};
		const group = app.profileGroup;
		if (app.loading || !group)
			return null;
		return group.profiles.map(({profile}) => {
			// The append-order call tree has one node per call, children
			// in time order; forEachCall gives the start of every call
			// that lasts (one of no duration has no sample).
			const startOf = new Map();
			profile.forEachCall((node, v) => {
				if (!startOf.has(node))
					startOf.set(node, v);
			}, () => {});
			const calls = [];
			const visit = (node, depth) => {
				for (const c of node.children) {
					calls.push({name: c.frame.name, depth,
						    dur: c.getTotalWeight(),
						    start: startOf.has(c) ? startOf.get(c) : null});
					visit(c, depth + 1);
				}
			};
			visit(profile.getAppendOrderCalltreeRoot(), 0);
			return {name: profile.getName(),
				total: profile.getTotalWeight(), calls};
		});
	});
}

async function openInViewer(file, servedAs, shots, shotName, nShots) {
	const server = await serve({[`/data/${servedAs}`]: file});
	const port = server.address().port;
	const browser = await puppeteer.launch({
		executablePath: process.env.TB_CHROMIUM || '/usr/bin/chromium',
		headless: true,
		args: ['--no-sandbox', '--disable-gpu', '--use-gl=swiftshader',
		       '--enable-unsafe-swiftshader', '--no-first-run'],
	});
	const warnings = [];
	let profiles = null;
	try {
		const page = await browser.newPage();
		await page.setViewport({width: 1600, height: 900});
		page.on('console', m => warnings.push(`${m.type()}: ${m.text()}`));
		page.on('pageerror', e => warnings.push(`pageerror: ${e.message}`));
		const base = `http://127.0.0.1:${port}`;
		await page.goto(`${base}/index.html#profileURL=${encodeURIComponent(`${base}/data/${servedAs}`)}`,
				{waitUntil: 'load'});
		// Loading ends with the profile group in the app's state; a
		// failed import with an error message and no group.  Waiting is
		// bounded only so that a broken viewer fails instead of hanging.
		for (let i = 0; i < 600 && !profiles; i++) {
			await new Promise(r => setTimeout(r, 200));
			profiles = await parsedProfiles(page);
			if (profiles && profiles.error) {
				warnings.push(profiles.error);
				profiles = null;
				break;
			}
		}
		if (profiles && shots) {
			fs.mkdirSync(shots, {recursive: true});
			// The views of the profiles a person most wants to see.
			for (let i = 0; i < Math.min(nShots, profiles.length); i++) {
				await new Promise(r => setTimeout(r, 300));
				await page.screenshot({path: path.join(shots, `${shotName}-${i}.png`)});
				await page.keyboard.press('n');
			}
		}
	} finally {
		await browser.close();
		server.close();
	}
	return {profiles, warnings};
}

// ---- the checks ----

const stripArgs = n => n.replace(/ \{.*\}$/s, '');

async function checkJson(trace, json, shots) {
	const names = readNames(`${trace}.names`);
	const tasks = readTasks(`${trace}.tasks`);
	const freq = cycleFrequency(trace);
	const us = tsc => Number(tsc) * 1e6 / freq;
	const {threads, cpus, ranOn} = dumpThreads(trace);
	// Calls running at the start are shown from the capture's start.
	let t0 = null;
	for (const th of threads.values())
		for (const r of th.recs.filter(() => th.tid !== META_TID))
			if (t0 === null || r.tsc < t0)
				t0 = r.tsc;
	const models = [...threads.values()].map(th => model(th, names, us, t0));
	const events = JSON.parse(fs.readFileSync(json, 'utf8')).traceEvents;

	const {profiles, warnings} = await openInViewer(json, path.basename(json),
		shots, 'json', 16);
	ok(profiles, `speedscope loaded ${json}`, warnings.join('\n'));
	if (!profiles)
		return;
	ok(warnings.some(w => /Importing as Trace Event Format/.test(w)),
	   'speedscope read it as trace_event', warnings.join('\n'));
	// The importer warns of every slice it had to fix: an end it could not
	// match, a frame still open at the end.  An end whose arguments differ
	// from its begin (marked "cut") is matched by name and allowed.
	const bad = warnings.filter(w => /stack was empty|Doing nothing|still open at end/.test(w) ||
		(/Ending .* instead/.test(w) && !/"cut"/.test(w)));
	ok(!bad.length, 'no slice left open or unmatched in the importer', bad.join('\n'));

	const byName = new Map(profiles.map(p => [p.name, p]));
	// Command names a task wrote as it exited ("tracebuf: comm NAME").
	const exitComm = new Map();
	const threadsOf = new Map();	// pid -> tids
	for (const th of threads.values()) {
		if (!threadsOf.has(th.pid))
			threadsOf.set(th.pid, []);
		threadsOf.get(th.pid).push(th.tid);
		for (const r of th.recs) {
			const m = r.kind === 'event' &&
				/data = 'tracebuf: comm ([\x20-\x7e]{1,15})'>?$/.exec(r.data);
			if (m)
				exitComm.set(th.tid, m[1]);
		}
	}
	const known = tid => tasks && tasks.get(tid) ? tasks.get(tid).comm : undefined;
	// The tasks file's main thread, the main thread's exit, any thread
	// the file knows, any thread's exit (as conversions.rst says).
	const procName = (pid) => {
		if (pid === 0)
			return 'swapper';
		const tids = (threadsOf.get(pid) || []).slice().sort((a, b) => a - b);
		return known(pid) || exitComm.get(pid) ||
			tids.map(known).find(c => c) ||
			tids.map(t => exitComm.get(t)).find(c => c) || `pid ${pid}`;
	};
	// A thread the tasks file does not know: its exit's name, else its
	// process's command.
	const threadName = (tid, pid) => {
		const t = known(tid) || exitComm.get(tid);
		if (t)
			return t;
		if (tid >= IDLE_TID && tid < IDLE_TID + 4096)
			return `swapper/${tid - IDLE_TID}`;
		const p = pid ? procName(pid) : `pid ${pid}`;
		return p.startsWith('pid ') ? `tid ${tid}` : p;
	};
	for (const m of models) {
		const label = `${procName(m.pid)} (pid ${m.pid}), ${threadName(m.tid, m.pid)} (tid ${m.tid})`;
		const p = byName.get(label);
		if (!m.slices.length) {
			ok(!p, `${label}: only point events, no profile`);
			continue;
		}
		ok(p, `${label}: a profile with the process and thread names`,
		   `profiles: ${[...byName.keys()].join('; ')}`);
		if (!p)
			continue;
		// Frame names and how many of each.
		const want = new Map(), got = new Map();
		for (const s of m.slices)
			want.set(s.name, (want.get(s.name) || 0) + 1);
		for (const c of p.calls)
			got.set(stripArgs(c.name), (got.get(stripArgs(c.name)) || 0) + 1);
		const diff = [...new Set([...want.keys(), ...got.keys()])]
			.filter(n => want.get(n) !== got.get(n))
			.map(n => `${n}: recorded ${want.get(n) || 0}, shown ${got.get(n) || 0}`);
		ok(!diff.length, `${label}: ${m.slices.length} slices, each name as often as recorded`,
		   diff.join('\n'));
		// Nesting and times: every slice at its depth, from its start to
		// its end (speedscope counts from the thread's first slice).
		const t0 = Math.min(...m.slices.map(s => s.start));
		const mis = [];
		const n = Math.min(m.slices.length, p.calls.length);
		for (let i = 0; i < n && mis.length < 5; i++) {
			const w = m.slices[i], g = p.calls[i];
			if (w.name !== stripArgs(g.name) || w.depth !== g.depth ||
			    Math.abs(w.end - w.start - g.dur) > EPS_US ||
			    (g.start !== null && Math.abs(w.start - t0 - g.start) > EPS_US))
				mis.push(`#${i}: recorded ${w.name} depth ${w.depth} at ${(w.start - t0).toFixed(3)} for ${(w.end - w.start).toFixed(3)}, ` +
					 `shown ${g.name} depth ${g.depth} at ${g.start === null ? '-' : g.start.toFixed(3)} for ${g.dur.toFixed(3)}`);
		}
		ok(!mis.length && p.calls.length === m.slices.length,
		   `${label}: nesting and times as recorded`, mis.join('\n'));
		// Nothing open: the profile ends where the thread's last slice does.
		const span = Math.max(...m.slices.map(s => s.end)) - t0;
		ok(Math.abs(p.total - span) <= EPS_US,
		   `${label}: total ${p.total.toFixed(3)} us is the span of its slices`,
		   `expected ${span.toFixed(3)}`);
		// Point events: instants in the JSON, never a frame of the viewer.
		for (const [pname, count] of m.points) {
			const inJson = events.filter(e => e.ph === 'i' && e.pid === m.pid &&
				e.tid === m.tid && e.name === pname).length;
			ok(inJson === count && !got.has(pname),
			   `${label}: ${count} ${pname} as instant events, no frame`,
			   `instants ${inJson}, frames ${got.get(pname) || 0}`);
		}
	}
	// A track per CPU: who ran there, one level, within the capture.
	// A slice is "COMMAND TID" of a task with a block on that CPU, the
	// tid as shown (0 for an idle task: its name says which CPU's).
	const shownTid = tid => tid >= IDLE_TID && tid < IDLE_TID + 4096 ? 0 : tid;
	const sliceName = m => {
		const n = threadName(m.tid, m.pid);
		return n.startsWith('tid ') ? `tid ${shownTid(m.tid)}` : `${n} ${shownTid(m.tid)}`;
	};
	for (const cpu of [...cpus].sort((a, b) => a - b)) {
		const taskNames = new Set(models
			.filter(m => (ranOn.get(`${m.pid}:${m.tid}`) || new Set()).has(cpu))
			.map(sliceName));
		const label = `CPUs (pid ${CPUS_PID}), CPU ${cpu} (tid ${CPUS_PID + 1 + cpu})`;
		const p = byName.get(label);
		ok(p && p.calls.length && p.calls.every(c => c.depth === 0),
		   `${label}: running tasks, one level`, p ? '' : 'no such profile');
		if (!p)
			continue;
		const unknown = p.calls.map(c => stripArgs(c.name))
			.filter(n => !taskNames.has(n));
		ok(!unknown.length, `${label}: every slice is a task that ran on it, by name and shown tid`,
		   unknown.slice(0, 5).join('\n'));
	}
}

async function checkFolded(file, shots) {
	const want = new Map();
	let total = 0;
	for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
		const m = /^(.*\S)\s+(\d+(?:\.\d+)?)$/.exec(line);
		if (!m)
			continue;
		want.set(m[1], (want.get(m[1]) || 0) + Number(m[2]));
		total += Number(m[2]);
	}
	// Speedscope recognises the format by this file name ending.
	const {profiles, warnings} = await openInViewer(file, 'stacks.collapsedstack.txt',
		shots, 'folded', 1);
	ok(profiles && profiles.length === 1, `speedscope loaded ${file}`, warnings.join('\n'));
	if (!profiles)
		return;
	const p = profiles[0];
	ok(Math.abs(p.total - total) < 1e-6, `total weight ${p.total} is the file's ${total}`);
	// Weight of each stack: the self weight of the call at that path.
	const got = new Map();
	const stack = [];
	p.calls.forEach((c, i) => {
		stack.length = c.depth;
		stack.push(c.name);
		let self = c.dur;
		for (let j = i + 1; j < p.calls.length && p.calls[j].depth > c.depth; j++)
			if (p.calls[j].depth === c.depth + 1)
				self -= p.calls[j].dur;
		if (self > 1e-9) {
			const k = stack.join(';');
			got.set(k, (got.get(k) || 0) + self);
		}
	});
	const diff = [...new Set([...want.keys(), ...got.keys()])]
		.filter(k => Math.abs((want.get(k) || 0) - (got.get(k) || 0)) > 1e-6)
		.map(k => `${k}: file ${want.get(k) || 0}, shown ${got.get(k) || 0}`);
	ok(!diff.length, `${want.size} stacks with the file's weights`, diff.join('\n'));
}

async function main() {
	const [mode, ...args] = process.argv.slice(2);
	console.log('TAP version 13');
	try {
		if (mode === 'json' && args.length === 3)
			await checkJson(args[0], args[1], args[2]);
		else if (mode === 'folded' && args.length === 2)
			await checkFolded(args[0], args[1]);
		else
			throw new Error('usage: viewer-check.js json TRACE JSON SHOTS | folded FILE SHOTS');
	} catch (e) {
		ok(false, 'the check ran', e.stack || e);
	}
	console.log(`1..${testNo}`);
	process.exit(failed ? 1 : 0);
}

main();
