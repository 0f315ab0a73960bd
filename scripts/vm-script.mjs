// What the bundles of scripts/bundle.mjs and scripts/build-binary.mjs share: a script run by
// node:vm, or as a single executable's main script, cannot import() by itself (not without an
// experimental option, and not at all once its code comes from the cache), nor read import.meta.
// Its import()s of what is not bundled (a computed path: oclif loading a command, a hook or a
// plugin; a package left outside) call the function its loader hands in, __kctlImport, which
// imports as any module does (or, in the single executable, answers from the bundle);
// import.meta.url is __kctlImportMetaUrl.
import {readFile} from 'node:fs/promises'

/** The esbuild plugin; `rewrite` may change a file's text further (the single executable's `yaml` loading). */
export function forVmScript(external, rewrite = (text) => text) {
  const outside = new RegExp(
    `await import\\((?!\\s*['"\`])${external.length > 0 ? `|await import\\((?=\\s*['"\`](${external.join('|')})['"\`])` : ''}`,
    'g',
  )
  return {
    name: 'for-a-vm-script',
    setup(b) {
      b.onLoad({filter: /\.([cm]?js|ts)$/}, async (args) => {
        const text = await readFile(args.path, 'utf8')
        return {
          contents: rewrite(text.replaceAll(outside, 'await __kctlImport(').replaceAll('import.meta.url', '__kctlImportMetaUrl'), args.path),
          loader: args.path.endsWith('.ts') ? 'ts' : 'js',
        }
      })
    },
  }
}

/** Throws when the bundle still has what such a script cannot run. */
export function checkVmScript(text, file) {
  for (const left of [/\bawait import\(/, /\bimport\.meta\b/]) {
    if (left.test(text)) throw new Error(`${file} still has ${left.source}: a vm script cannot run it`)
  }
}

/**
 * The script with each character outside ASCII written as a \u escape, so that it can be read as
 * Latin-1 (src/cli/script-cache.ts): a byte per character, copied, where decoding the bundle's UTF-8
 * costs a few milliseconds at every start. esbuild escapes strings and templates itself, but leaves
 * regular expressions as written; in those, as in identifiers and comments, the escape means the
 * same character. After a backslash it would not: the build stops there.
 */
export function asciiScript(text, file) {
  return text.replace(/(\\?)([^\x00-\x7f])/g, (_, backslash, c) => {
    if (backslash) throw new Error(`${file} has \\${c}: its \\u escape would mean another thing`)
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`
  })
}
