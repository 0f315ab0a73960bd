// The one line a UserError shows, from a read that must fail with one.
import {UserError} from '../../src/errors.js'

export async function userErrorLine(read: () => Promise<unknown>): Promise<string> {
  try {
    await read()
  } catch (error) {
    if (error instanceof UserError) return error.line
    throw error
  }
  throw new Error('expected an error')
}
