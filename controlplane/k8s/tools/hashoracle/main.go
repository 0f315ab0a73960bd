// Command hashoracle reads Deployments (one JSON object per line) and prints, per line, the
// pod-template-hash kube-controller-manager computes for each, with the exact text it hashes:
// the template decoded and defaulted as the API server stores it, round-tripped through
// protobuf as the controller receives it, then controller.ComputeHash. kctl's own hash is
// tested against this program.
package main

import (
	"bufio"
	"encoding/json"
	"os"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/apis/apps"
	_ "k8s.io/kubernetes/pkg/apis/apps/install"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	"k8s.io/kubernetes/pkg/controller"
	"k8s.io/utils/dump"
)

type result struct {
	Hash  string `json:"hash,omitempty"`
	Dump  string `json:"dump,omitempty"`
	Error string `json:"error,omitempty"`
}

func hash(line []byte) (res result) {
	var d appsv1.Deployment
	if err := runtime.DecodeInto(legacyscheme.Codecs.UniversalDecoder(appsv1.SchemeGroupVersion), line, &d); err != nil {
		return result{Error: "decode: " + err.Error()}
	}
	// Through the internal version and back, as the API server converts on its way to storage.
	var internal apps.Deployment
	if err := legacyscheme.Scheme.Convert(&d, &internal, nil); err != nil {
		return result{Error: "to internal: " + err.Error()}
	}
	var stored appsv1.Deployment
	if err := legacyscheme.Scheme.Convert(&internal, &stored, nil); err != nil {
		return result{Error: "from internal: " + err.Error()}
	}
	// The controller reads protobuf: empty lists and maps become nil, quantities are re-parsed.
	wire, err := stored.Marshal()
	if err != nil {
		return result{Error: "protobuf: " + err.Error()}
	}
	var seen appsv1.Deployment
	if err := seen.Unmarshal(wire); err != nil {
		return result{Error: "protobuf: " + err.Error()}
	}
	return result{
		Hash: controller.ComputeHash(&seen.Spec.Template, seen.Status.CollisionCount),
		Dump: dump.ForHash(seen.Spec.Template),
	}
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 64<<20)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	for in.Scan() {
		if len(in.Bytes()) == 0 {
			continue
		}
		_ = enc.Encode(hash(in.Bytes()))
	}
}
