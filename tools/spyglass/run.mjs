// Validates prepared project folders with Spyglass, offline, one game version per folder, in one Node process.
//
// Usage: node run.mjs JOB.json
// JOB.json: {"cache": "<dir>", "projects": [{"version": "<Spyglass version id>", "root": "<dir>"}, ...]}
// Prints one JSON object: {"projects": [{"version", "root", "files", "diagnostics": [{"file", "line",
// "column", "severity", "message"}]}]}; severity is Spyglass's (0 hint, 1 information, 2 warning, 3 error).
//
// Spyglass downloads the command tree, registries, block states and the vanilla-mcdoc types from its own web
// service at start-up. Here `fetch` is replaced by a reader of the files in ./data (see data/PROVENANCE.md), so
// nothing leaves the machine; any other address answers 404, which Spyglass treats as "not available" (it then
// uses the version list bundled in @spyglassmc/java-edition).
import * as core from '@spyglassmc/core'
import { getNodeJsExternals } from '@spyglassmc/core/lib/nodejs.js'
import * as je from '@spyglassmc/java-edition'
import * as mcdoc from '@spyglassmc/mcdoc'
import fs from 'node:fs/promises'
import path from 'node:path'
import process from 'node:process'
import url from 'node:url'

const here = path.dirname(url.fileURLToPath(import.meta.url))
const data = path.join(here, 'data')

// The command tree, registries and block states are the same for every version: only a 26.1 tree exists
// offline (see data/PROVENANCE.md); the per-version differences the project meets are in the mcdoc types.
const bundled = path.join(here, 'node_modules/@spyglassmc/java-edition/lib/dependency/mcmeta/versions.json')
const served = [
	[/^\/mcje\/versions$/, bundled, 'application/json'],
	[/\/mcje\/versions\/[^/]+\/commands$/, 'commands_26.1.json', 'application/json'],
	[/\/mcje\/versions\/[^/]+\/registries$/, 'registries.json', 'application/json'],
	[/\/mcje\/versions\/[^/]+\/block_states$/, 'block_states.json', 'application/json'],
	[/\/vanilla-mcdoc\/tarball$/, 'mcdoc.tar.gz', 'application/gzip'],
]

globalThis.fetch = async (input) => {
	const address = typeof input === 'string' ? input : input.url
	for (const [pattern, file, type] of served) {
		if (pattern.test(new URL(address).pathname)) {
			const body = await fs.readFile(path.resolve(data, file))
			return new Response(body, { status: 200, headers: { 'content-type': type, etag: `"${file}"` } })
		}
	}
	return new Response('offline', { status: 404, statusText: 'offline' })
}

const quiet = { log() {}, info() {}, warn() {}, error(...args) { errors.push(args.map(String).join(" ")) } }
const errors = []

/** The project's files, listed once: a file watcher that never sees a change (the folder is written beforehand). */
class StaticWatcher extends core.EventDispatcher {
	#files = new core.UriStore()
	static async of(root) {
		const watcher = new StaticWatcher()
		for (const entry of await fs.readdir(root, { recursive: true, withFileTypes: true })) {
			if (entry.isFile()) watcher.#files.add(url.pathToFileURL(path.join(entry.parentPath ?? entry.path, entry.name)).toString())
		}
		return watcher
	}
	get watchedFiles() { return this.#files }
	async ready() {}
	async close() {}
}

async function check(version, root, cache) {
	const rootUri = url.pathToFileURL(root).toString().replace(/\/?$/, '/')
	const cacheUri = url.pathToFileURL(cache).toString().replace(/\/?$/, '/')
	const externals = getNodeJsExternals({ cacheRoot: cacheUri, logger: quiet })
	const config = core.ConfigService.merge(core.VanillaConfig, {
		env: { gameVersion: version, dependencies: ['@vanilla-mcdoc'], permissionLevel: 4 },
	})
	const project = new core.Project({
		cacheRoot: cacheUri,
		defaultConfig: config,
		externals,
		initializers: [mcdoc.initialize, je.initialize],
		logger: quiet,
		projectRoots: [rootUri],
	})
	const found = new Map()
	project.on('documentUpdated', ({ doc, node }) => {
		if (!doc.uri.startsWith(rootUri)) return
		found.set(doc.uri, core.FileNode.getErrors(node).map((e) => ({
			file: doc.uri.slice(rootUri.length),
			line: doc.positionAt(e.range.start).line + 1,
			column: doc.positionAt(e.range.start).character + 1,
			severity: e.severity,
			message: e.message,
		})))
	})
	await project.init()
	await project.ready({ projectRootsWatcher: await StaticWatcher.of(root) })
	await project.analyzeProject()
	// The cache folder is a temporary one, read by nobody after this run: writing Spyglass's symbol cache to it
	// (gzipped JSON of every symbol) was a fifth of the run's CPU time.
	project.cacheService.save = async () => false
	await project.close()
	return { version, root, files: [...found.keys()].map((u) => u.slice(rootUri.length)).sort(),
		diagnostics: [...found.values()].flat() }
}

const job = JSON.parse(await fs.readFile(process.argv[2], 'utf-8'))
const projects = []
for (const { version, root } of job.projects) {
	projects.push(await check(version, root, path.join(job.cache, version)))
}
process.stdout.write(JSON.stringify({ projects, errors }) + '\n')
