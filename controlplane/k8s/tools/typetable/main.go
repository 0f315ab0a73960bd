// Command typetable prints, as JSON, every struct type reachable from core/v1 PodTemplateSpec with
// its fields in declaration order: what kctl's pod-template-hash walker needs to print a template
// exactly as the controller's hash input (spew's %#v of the Go value) does.
package main

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"

	corev1 "k8s.io/api/core/v1"
)

type field struct {
	Name string `json:"name"`
	JSON string `json:"json,omitempty"`
	Type string `json:"type"`
}

type typeInfo struct {
	Kind   string   `json:"kind"`
	Elem   string   `json:"elem,omitempty"`
	Key    string   `json:"key,omitempty"`
	Fields []field  `json:"fields,omitempty"`
}

func main() {
	types := map[string]typeInfo{}
	paths := map[string]string{}
	var order []string
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		name := t.String()
		if _, seen := types[name]; seen {
			// Type strings carry the package name only: two packages' types must not share one.
			if paths[name] != t.PkgPath() {
				panic("two types print as " + name + ": " + paths[name] + " and " + t.PkgPath())
			}
			return
		}
		paths[name] = t.PkgPath()
		info := typeInfo{Kind: t.Kind().String()}
		types[name] = info
		order = append(order, name)
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array:
			info.Elem = t.Elem().String()
			types[name] = info
			walk(t.Elem())
		case reflect.Map:
			info.Elem = t.Elem().String()
			info.Key = t.Key().String()
			types[name] = info
			walk(t.Key())
			walk(t.Elem())
		case reflect.Struct:
			for i := 0; i < t.NumField(); i++ {
				f := t.Field(i)
				tag := strings.Split(f.Tag.Get("json"), ",")[0]
				if f.Anonymous && tag == "" {
					tag = "*inline"
				}
				info.Fields = append(info.Fields, field{Name: f.Name, JSON: tag, Type: f.Type.String()})
			}
			types[name] = info
			for i := 0; i < t.NumField(); i++ {
				walk(t.Field(i).Type)
			}
		}
	}
	walk(reflect.TypeOf(corev1.PodTemplateSpec{}))
	os.Stdout.WriteString("{\n")
	for i, name := range order {
		key, _ := json.Marshal(name)
		val, _ := json.Marshal(types[name])
		sep := ","
		if i == len(order)-1 {
			sep = ""
		}
		os.Stdout.WriteString("  " + string(key) + ": " + string(val) + sep + "\n")
	}
	os.Stdout.WriteString("}\n")
}
