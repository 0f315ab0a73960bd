// The shape of the generated Go type table (pod-template-types.ts).

export interface GoField {
  /** The Go field name, as spew prints it. */
  name: string
  /** The JSON name; `*inline` for an embedded struct read from the same object; absent when not serialized. */
  json?: string
  /** reflect.Type.String() of the field's type. */
  type: string
}

export interface GoType {
  /** reflect.Kind: struct, ptr, slice, map, string, bool, int32, ... */
  kind: string
  elem?: string
  key?: string
  fields?: GoField[]
}

export type GoTypes = Readonly<Record<string, GoType>>
