// Path globs for `ignorePaths` in .kctl.yaml, matched against paths relative to the config file's
// directory, with "/" separators:
//   *      any characters but "/"          **     any number of path segments
//   ?      one character but "/"           {a,b}  either alternative
//   [abc]  one of the characters
// A pattern without "/" matches a file or directory name at any depth (like .gitignore); one with
// a "/" (a leading one included) is anchored at the config's directory ("./" changes nothing). A pattern
// that matches a directory matches everything under it.

export function globToRegExp(pattern: string): RegExp {
  let p = pattern.trim().replace(/\\/g, '/')
  if (p.startsWith('./')) p = p.slice(2)
  const rooted = p.startsWith('/')
  p = p.replace(/^\/+/, '').replace(/\/+$/, '')
  const anchored = rooted || p.includes('/')
  let re = ''
  let braces = 0
  for (let i = 0; i < p.length; i++) {
    const c = p[i]
    if (c === '*') {
      if (p[i + 1] === '*') {
        const atStart = i === 0 || p[i - 1] === '/'
        const atEnd = i + 2 === p.length || p[i + 2] === '/'
        if (atStart && atEnd) {
          // "**/" → any leading directories (the loop's i++ steps past the "/"); a final "**" →
          // anything below.
          if (i + 2 < p.length) re += '(?:[^/]+/)*'
          else re += '.*'
          i += 2
          continue
        }
      }
      re += '[^/]*'
    } else if (c === '?') re += '[^/]'
    else if (c === '{') {
      braces++
      re += '(?:'
    } else if (c === '}' && braces > 0) {
      braces--
      re += ')'
    } else if (c === ',' && braces > 0) re += '|'
    else if (c === '[') {
      const close = p.indexOf(']', i + 1)
      if (close < 0) re += '\\['
      else {
        const body = p.slice(i + 1, close).replace(/\\/g, '\\\\')
        re += `[${body.startsWith('!') ? `^${body.slice(1)}` : body}]`
        i = close
      }
    } else re += c.replace(/[.+^$()|\\]/g, '\\$&')
  }
  return new RegExp(`^${anchored ? '' : '(?:[^/]+/)*'}${re}(?:/.*)?$`)
}

export class PathMatcher {
  private readonly regexps: RegExp[]
  constructor(readonly patterns: readonly string[]) {
    this.regexps = patterns.map(globToRegExp)
  }

  /** `relative`: a path relative to the config's directory, "/"-separated. */
  matches(relative: string): boolean {
    const p = relative.replace(/\\/g, '/').replace(/^\.\//, '')
    if (p.startsWith('../')) return false
    return this.regexps.some((re) => re.test(p))
  }
}
