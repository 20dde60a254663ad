// Validates prepared project folders with Spyglass, offline, one game version per folder, in one Node process.
//
// Usage: node run.mjs JOB.json
// JOB.json: {"cache": "<dir>", "vanilla": "<dir>", "build": ["<Spyglass version id>", ...], "projects":
// [{"version": "<Spyglass version id>", "root": "<dir>"}, ...], "keys": ["<Spyglass version id>", ...]}. "cache" is
// Spyglass's cache root for this run (its downloads); "vanilla" the folder of the vanilla symbol tables, kept
// between runs (see `vanilla` below); "build" versions whose table is made first if it is missing (a job may hold
// only these); "keys" versions whose set-up key (`setupKey`) is printed, nothing else needed.
// Prints one JSON object: {"projects": [{"version", "root", "files", "built", "diagnostics": [{"file", "line",
// "column", "severity", "message"}]}], "keys": {"<version>": "<key>"}, "errors": [...]}; severity is Spyglass's
// (0 hint, 1 information, 2 warning, 3 error); "built" tells whether this run built the version's vanilla symbol
// table (not when it found it, or found another version's table of the same key).
//
// Spyglass downloads the command tree, registries, block states and the vanilla-mcdoc types from its own web
// service at start-up. Here `fetch` is replaced by a reader of the files in ./data (see data/PROVENANCE.md), so
// nothing leaves the machine; any other address answers 404, which Spyglass treats as "not available" (it then
// uses the version list bundled in @spyglassmc/java-edition).
import * as core from '@spyglassmc/core'
import { getNodeJsExternals } from '@spyglassmc/core/lib/nodejs.js'
import * as je from '@spyglassmc/java-edition'
import * as mcdoc from '@spyglassmc/mcdoc'
import { createHash } from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import process from 'node:process'
import url from 'node:url'

const here = path.dirname(url.fileURLToPath(import.meta.url))
const data = path.join(here, 'data')

// The command tree, registries and block states are the same for every version: only a 26.1 tree exists
// offline (see data/PROVENANCE.md); the per-version differences the project meets are in the mcdoc types. A
// version's own file, data/versions/<Spyglass version id>/<file>, would be served instead of the shared one.
const bundled = path.join(here, 'node_modules/@spyglassmc/java-edition/lib/dependency/mcmeta/versions.json')
const served = [
	['/mcje/versions', bundled, 'application/json'],
	['/mcje/versions/{version}/commands', 'commands_26.1.json', 'application/json'],
	['/mcje/versions/{version}/registries', 'registries.json', 'application/json'],
	['/mcje/versions/{version}/block_states', 'block_states.json', 'application/json'],
	['/vanilla-mcdoc/tarball', 'mcdoc.tar.gz', 'application/gzip'],
].map(([route, file, type]) => [new RegExp(`${route.replace('{version}', '(?<version>[^/]+)')}$`), file, type, route])

/** The file served at `pathname` (undefined: none), with its content type. */
async function servedFile(pathname) {
	for (const [pattern, file, type] of served) {
		const found = pattern.exec(pathname)
		if (!found) continue
		const version = found.groups?.version && decodeURIComponent(found.groups.version)
		const own = version && path.join(data, 'versions', version, file)
		if (own && !own.includes('..') && await fs.access(own).then(() => true, () => false)) return { file: own, type }
		return { file: path.resolve(data, file), type }
	}
	return undefined
}

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex')

globalThis.fetch = async (input) => {
	const address = typeof input === 'string' ? input : input.url
	const found = await servedFile(new URL(address).pathname)
	if (!found) return new Response('offline', { status: 404, statusText: 'offline' })
	const body = await fs.readFile(found.file)
	// Spyglass keys its registrars' results by these tags: they name the content, not only the file.
	return new Response(body, { status: 200, headers: { 'content-type': found.type, etag: `"${sha256(body)}"` } })
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

function project(version, rootUri, cacheUri) {
	const config = core.ConfigService.merge(core.VanillaConfig, {
		env: { gameVersion: version, dependencies: ['@vanilla-mcdoc'], permissionLevel: 4 },
	})
	return new core.Project({
		cacheRoot: cacheUri,
		defaultConfig: config,
		externals: getNodeJsExternals({ cacheRoot: cacheUri, logger: quiet }),
		initializers: [mcdoc.initialize, je.initialize],
		logger: quiet,
		projectRoots: [rootUri],
	})
}

const folderUri = (dir) => url.pathToFileURL(dir).toString().replace(/\/?$/, '/')

// Spyglass's only symbol registrar given the game version: its outcome for a version is that of each version
// comparison in its code. Any other use of the version there makes the version itself part of the key.
const registrar = String(je.dependency.symbolRegistrar)
const compared = [...registrar.matchAll(/ReleaseVersion\.cmp\(release, '([^']+)'\)/g)].map((m) => m[1])
const versionRead = registrar.match(/\brelease\b/g).length !== 1 + compared.length
const versions = JSON.parse(await fs.readFile(bundled, 'utf-8'))

/**
 * The set-up key of `version`: a digest of everything its vanilla symbol table (`vanilla`) is built from that
 * may differ by version, so two versions share a table exactly when those inputs are the same byte for byte:
 * the content served at every address of `served` as Spyglass asks it for this version (the version's own file
 * where it has one), and the outcome of the version comparisons of Spyglass's version-dependent registrar. The
 * rest (the Spyglass packages, this harness, the unicode tables they bundle) is the same for every version and
 * keys the whole folder (check.py, `vanilla_key`); binding vanilla-mcdoc does not read the version (its
 * `#[since]`/`#[until]` rules are applied when a project is checked). Returns 16 hex digits.
 */
async function setupKey(version) {
	const release = je.dependency.resolveConfiguredVersion(version, versions, [], quiet).release
	const digest = createHash('sha256')
	for (const [, , , route] of served) {
		const found = await servedFile(route.replace('{version}', encodeURIComponent(version)))
		digest.update(`${route}\0${found ? sha256(await fs.readFile(found.file)) : 'none'}\0`)
	}
	for (const threshold of compared) digest.update(`${threshold}:${je.dependency.ReleaseVersion.cmp(release, threshold) < 0}\0`)
	if (versionRead) digest.update(`release:${release}\0`)
	return digest.digest('hex').slice(0, 16)
}

const exists = (file) => fs.access(file).then(() => true, () => false)

/**
 * Makes sure `file` holds the vanilla symbol table of `version`: what Spyglass binds from the vanilla-mcdoc types
 * and registers from the command tree, registries and block states for that version, with no project file in it
 * (it is built over an empty folder). Spyglass's own cache format (`CacheService`), which also records the
 * checksum of every vanilla-mcdoc file and of each registrar's data, so a project that loads it rebinds whatever
 * changed. Binding vanilla-mcdoc is most of a version's set-up, and it is the same from one run to the next.
 * The table is built once per set-up key (`setupKey`), as `setup-<key>.json.gz` beside `file`, and `file` is a
 * link to it: versions whose inputs are the same share one table, and one build. Each file is written whole under
 * another name, then renamed: a concurrent run reads the old file or the new one. Returns whether it was built.
 */
async function vanilla(version, file, cache) {
	if (await exists(file)) return false
	const shared = path.join(path.dirname(file), `setup-${await setupKey(version)}.json.gz`)
	const built = !(await exists(shared))
	if (built) await build(version, shared, cache)
	const linking = `${file}.${process.pid}.tmp`
	await fs.rm(linking, { force: true })
	await fs.link(shared, linking).catch(() => fs.copyFile(shared, linking))
	await fs.rename(linking, file)
	return built
}

async function build(version, file, cache) {
	const empty = await fs.mkdtemp(path.join(cache, 'empty-'))
	const building = `${file}.${process.pid}.tmp`
	const builder = project(version, folderUri(empty), folderUri(path.join(cache, version)))
	builder.cacheService.getCacheFileUri = async () => url.pathToFileURL(building).toString()
	await builder.init()
	await builder.ready({ projectRootsWatcher: await StaticWatcher.of(empty) })
	const saved = await builder.cacheService.save()
	builder.cacheService.save = async () => false
	await builder.close()
	if (!saved) throw new Error(`could not write the vanilla symbol table ${building}`)
	await fs.rename(building, file)
}

async function check(version, root, cache, vanillaDir) {
	const rootUri = folderUri(root)
	const file = path.join(vanillaDir, `${version}.json.gz`)
	const built = await vanilla(version, file, cache)
	const checked = project(version, rootUri, folderUri(path.join(cache, version)))
	// Spyglass loads its symbols from this file at `init` and checks it against the files it tracks at `ready`.
	checked.cacheService.getCacheFileUri = async () => url.pathToFileURL(file).toString()
	// Nothing reads a cache of this project (its files are written anew by every run): writing one (gzipped JSON
	// of every symbol, at the end of an analysis and at `close`) was a fifth of a version's CPU time.
	checked.cacheService.save = async () => false
	const found = new Map()
	const bound = new Map()
	checked.on('documentUpdated', ({ doc, node }) => {
		if (!doc.uri.startsWith(rootUri)) return
		bound.set(doc.uri, { doc, node })
		found.set(doc.uri, core.FileNode.getErrors(node).map((e) => ({
			file: doc.uri.slice(rootUri.length),
			line: doc.positionAt(e.range.start).line + 1,
			column: doc.positionAt(e.range.start).character + 1,
			severity: e.severity,
			message: e.message,
		})))
	})
	await checked.init()
	await checked.ready({ projectRootsWatcher: await StaticWatcher.of(root) })
	// `ready` parsed and bound every file of the project (none is in the vanilla table), so the symbol table is
	// whole: each file is checked on the tree `ready` bound, in Spyglass's order. `analyzeProject` would parse and
	// bind every file a second time first (7 % of the CPU time of a check) and report the same.
	for (const uri of [...bound.keys()].sort(checked.meta.uriSorter)) {
		const { doc, node } = bound.get(uri)
		await checked.check(doc, node)
		checked.emit('documentUpdated', { doc, node })
	}
	await checked.close()
	return { version, root, built, files: [...found.keys()].map((u) => u.slice(rootUri.length)).sort(),
		diagnostics: [...found.values()].flat() }
}

const job = JSON.parse(await fs.readFile(process.argv[2], 'utf-8'))
const keys = {}
for (const version of job.keys ?? []) keys[version] = await setupKey(version)
if (job.cache) await fs.mkdir(job.cache, { recursive: true })
if (job.vanilla) await fs.mkdir(job.vanilla, { recursive: true })
for (const version of job.build ?? []) await vanilla(version, path.join(job.vanilla, `${version}.json.gz`), job.cache)
const projects = []
for (const { version, root } of job.projects ?? []) {
	projects.push(await check(version, root, job.cache, job.vanilla))
}
process.stdout.write(JSON.stringify({ projects, keys, errors }) + '\n')
