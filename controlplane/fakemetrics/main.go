// kctl-fakemetrics serves the three metrics APIs the horizontal pod autoscaler reads, with values a
// test sets, so that kube-controller-manager's HPA controller and kctl can be given the very same
// answers:
//
//	metrics.k8s.io/v1beta1           PodMetricsList for namespaces/<ns>/pods?labelSelector=…
//	custom.metrics.k8s.io/v1beta2    MetricValueList for namespaces/<ns>/pods/*/<metric>?labelSelector=…
//	                                 and namespaces/<ns>/<resource>/<name>/<metric>, namespaces/<ns>/metrics/<metric>
//	                                 (each with an optional metricLabelSelector)
//	external.metrics.k8s.io/v1beta1  ExternalMetricValueList for namespaces/<ns>/<metric>?labelSelector=…
//
//	kctl-fakemetrics --port=N [--bind=127.0.0.1]
//
// It speaks HTTPS only, with a self-signed certificate made at start (the APIServices that route to
// it set insecureSkipTLSVerify). It is registered with kube-apiserver's aggregation layer by
// controlplane/fake-metrics.ts. Besides the APIs and their discovery documents (GET /apis/<group>/<version>),
// on the same port:
//
//	PUT    /fake/namespaces/<ns>   the namespace's metrics (JSON, see state below), replacing what it had
//	DELETE /fake/namespaces/<ns>   forget them
//	GET    /fake/requests?namespace=<ns>   the API requests served so far for that namespace, in order
//	GET    /healthz
//
// Only the standard library: nothing to download, and it builds in seconds.
package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"
)

// podMetrics is one pod's sample (metrics.k8s.io PodMetrics).
type podMetrics struct {
	Name       string            `json:"name"`
	Labels     map[string]string `json:"labels,omitempty"`
	Timestamp  string            `json:"timestamp"`
	Window     string            `json:"window,omitempty"`
	Containers []struct {
		Name  string            `json:"name"`
		Usage map[string]string `json:"usage"`
	} `json:"containers"`
}

// customMetric is one value of a custom metric for one object. Resource is the path segment the
// client asks for ("pods", "services", "deployments.apps", "namespaces" for the namespace itself).
type customMetric struct {
	Resource      string            `json:"resource"`
	Name          string            `json:"name"`
	Kind          string            `json:"kind"`
	APIVersion    string            `json:"apiVersion,omitempty"`
	Labels        map[string]string `json:"labels,omitempty"`
	Metric        string            `json:"metric"`
	MetricLabels  map[string]string `json:"metricLabels,omitempty"`
	Value         string            `json:"value"`
	Timestamp     string            `json:"timestamp"`
	WindowSeconds *int64            `json:"windowSeconds,omitempty"`
}

// externalMetric is one item of an ExternalMetricValueList.
type externalMetric struct {
	MetricName   string            `json:"metricName"`
	MetricLabels map[string]string `json:"metricLabels"`
	Value        string            `json:"value"`
	Timestamp    string            `json:"timestamp"`
	Window       *int64            `json:"window,omitempty"`
}

// state is one namespace's metrics. Fail, by API ("resource", "custom", "external"), makes every
// request of that API in the namespace answer 503 with that message.
type state struct {
	Pods     []podMetrics      `json:"pods"`
	Custom   []customMetric    `json:"custom"`
	External []externalMetric  `json:"external"`
	Fail     map[string]string `json:"fail,omitempty"`
}

type request struct {
	Seq   int64  `json:"seq"`
	Path  string `json:"path"`
	Query string `json:"query"`
}

type server struct {
	mu       sync.Mutex
	byNs     map[string]*state
	requests map[string][]request
	seq      int64
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

func status(w http.ResponseWriter, code int, reason, message string) {
	writeJSON(w, code, map[string]any{
		"kind": "Status", "apiVersion": "v1", "metadata": map[string]any{},
		"status": "Failure", "message": message, "reason": reason, "code": code,
	})
}

var groups = map[string]struct {
	version   string
	resources []map[string]any
}{
	"metrics.k8s.io": {"v1beta1", []map[string]any{
		{"name": "pods", "singularName": "", "namespaced": true, "kind": "PodMetrics", "verbs": []string{"get", "list"}},
		{"name": "nodes", "singularName": "", "namespaced": false, "kind": "NodeMetrics", "verbs": []string{"get", "list"}},
	}},
	"custom.metrics.k8s.io": {"v1beta2", []map[string]any{
		{"name": "pods/*", "singularName": "", "namespaced": true, "kind": "MetricValueList", "verbs": []string{"get"}},
		{"name": "*/*", "singularName": "", "namespaced": true, "kind": "MetricValueList", "verbs": []string{"get"}},
	}},
	"external.metrics.k8s.io": {"v1beta1", []map[string]any{
		{"name": "*", "singularName": "", "namespaced": true, "kind": "ExternalMetricValueList", "verbs": []string{"get"}},
	}},
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	path := strings.TrimSuffix(r.URL.Path, "/")
	switch {
	case path == "/healthz":
		_, _ = io.WriteString(w, "ok")
		return
	case strings.HasPrefix(path, "/fake/"):
		s.control(w, r, strings.TrimPrefix(path, "/fake/"))
		return
	}
	parts := strings.Split(strings.TrimPrefix(path, "/"), "/")
	if len(parts) < 3 || parts[0] != "apis" {
		status(w, http.StatusNotFound, "NotFound", "the server could not find the requested resource")
		return
	}
	g, ok := groups[parts[1]]
	if !ok || parts[2] != g.version {
		status(w, http.StatusNotFound, "NotFound", "the server could not find the requested resource")
		return
	}
	if r.Method != http.MethodGet {
		status(w, http.StatusMethodNotAllowed, "MethodNotAllowed", "only GET is served")
		return
	}
	gv := parts[1] + "/" + parts[2]
	rest := parts[3:]
	if len(rest) == 0 {
		writeJSON(w, http.StatusOK, map[string]any{"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": gv, "resources": g.resources})
		return
	}
	if len(rest) < 2 || rest[0] != "namespaces" {
		status(w, http.StatusNotFound, "NotFound", "only namespaced metrics are served")
		return
	}
	ns := rest[1]
	q := r.URL.Query()
	s.mu.Lock()
	s.seq++
	s.requests[ns] = append(s.requests[ns], request{Seq: s.seq, Path: r.URL.Path, Query: r.URL.RawQuery})
	st := s.byNs[ns]
	if st == nil {
		st = &state{}
	}
	s.mu.Unlock()
	api := map[string]string{"metrics.k8s.io": "resource", "custom.metrics.k8s.io": "custom", "external.metrics.k8s.io": "external"}[parts[1]]
	if msg, ok := st.Fail[api]; ok {
		status(w, http.StatusServiceUnavailable, "ServiceUnavailable", msg)
		return
	}
	labelSel, err := parseSelector(q.Get("labelSelector"))
	if err != nil {
		status(w, http.StatusBadRequest, "BadRequest", err.Error())
		return
	}
	switch parts[1] {
	case "metrics.k8s.io":
		if len(rest) != 3 || rest[2] != "pods" {
			status(w, http.StatusNotFound, "NotFound", "only pods metrics are served")
			return
		}
		items := []any{}
		for _, p := range st.Pods {
			if !labelSel.matches(p.Labels) {
				continue
			}
			window := p.Window
			if window == "" {
				window = "30s"
			}
			items = append(items, map[string]any{
				"metadata":   map[string]any{"name": p.Name, "namespace": ns, "labels": p.Labels, "creationTimestamp": time.Now().UTC().Format(time.RFC3339)},
				"timestamp":  p.Timestamp,
				"window":     window,
				"containers": p.Containers,
			})
		}
		writeJSON(w, http.StatusOK, map[string]any{"kind": "PodMetricsList", "apiVersion": gv, "metadata": map[string]any{}, "items": items})
	case "custom.metrics.k8s.io":
		var resource, name, metric string
		switch {
		case len(rest) == 4 && rest[2] == "metrics": // the namespace itself
			resource, name, metric = "namespaces", ns, rest[3]
		case len(rest) == 5:
			resource, name, metric = rest[2], rest[3], rest[4]
		default:
			status(w, http.StatusNotFound, "NotFound", "not a custom metrics path")
			return
		}
		metricSel, err := parseSelector(q.Get("metricLabelSelector"))
		if err != nil {
			status(w, http.StatusBadRequest, "BadRequest", err.Error())
			return
		}
		items := []any{}
		for _, m := range st.Custom {
			if m.Resource != resource || m.Metric != metric || !metricSel.matches(m.MetricLabels) {
				continue
			}
			if name == "*" {
				if !labelSel.matches(m.Labels) {
					continue
				}
			} else if m.Name != name {
				continue
			}
			item := map[string]any{
				"describedObject": map[string]any{"kind": m.Kind, "namespace": ns, "name": m.Name, "apiVersion": m.APIVersion},
				"metric":          map[string]any{"name": m.Metric},
				"timestamp":       m.Timestamp,
				"value":           m.Value,
			}
			if m.WindowSeconds != nil {
				item["windowSeconds"] = *m.WindowSeconds
			}
			items = append(items, item)
		}
		writeJSON(w, http.StatusOK, map[string]any{"kind": "MetricValueList", "apiVersion": gv, "metadata": map[string]any{}, "items": items})
	case "external.metrics.k8s.io":
		if len(rest) != 3 {
			status(w, http.StatusNotFound, "NotFound", "not an external metrics path")
			return
		}
		items := []any{}
		for _, m := range st.External {
			if m.MetricName != rest[2] || !labelSel.matches(m.MetricLabels) {
				continue
			}
			labels := m.MetricLabels
			if labels == nil {
				labels = map[string]string{}
			}
			item := map[string]any{"metricName": m.MetricName, "metricLabels": labels, "timestamp": m.Timestamp, "value": m.Value}
			if m.Window != nil {
				item["window"] = *m.Window
			}
			items = append(items, item)
		}
		writeJSON(w, http.StatusOK, map[string]any{"kind": "ExternalMetricValueList", "apiVersion": gv, "metadata": map[string]any{}, "items": items})
	}
}

func (s *server) control(w http.ResponseWriter, r *http.Request, path string) {
	parts := strings.Split(path, "/")
	switch {
	case len(parts) == 2 && parts[0] == "namespaces" && r.Method == http.MethodPut:
		var st state
		if err := json.NewDecoder(r.Body).Decode(&st); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		s.mu.Lock()
		s.byNs[parts[1]] = &st
		s.mu.Unlock()
		writeJSON(w, http.StatusOK, map[string]any{})
	case len(parts) == 2 && parts[0] == "namespaces" && r.Method == http.MethodDelete:
		s.mu.Lock()
		delete(s.byNs, parts[1])
		delete(s.requests, parts[1])
		s.mu.Unlock()
		writeJSON(w, http.StatusOK, map[string]any{})
	case len(parts) == 1 && parts[0] == "requests" && r.Method == http.MethodGet:
		s.mu.Lock()
		reqs := append([]request{}, s.requests[r.URL.Query().Get("namespace")]...)
		s.mu.Unlock()
		writeJSON(w, http.StatusOK, reqs)
	default:
		http.Error(w, "unknown control path", http.StatusNotFound)
	}
}

// ---- Label selectors, as labels.Parse reads the string form ----

type requirement struct {
	key    string
	op     string // = != in notin exists !exists
	values []string
}

type selector []requirement

func (sel selector) matches(l map[string]string) bool {
	for _, r := range sel {
		v, has := l[r.key]
		switch r.op {
		case "=":
			if !has || v != r.values[0] {
				return false
			}
		case "!=":
			if has && v == r.values[0] {
				return false
			}
		case "in":
			if !has || !contains(r.values, v) {
				return false
			}
		case "notin":
			if has && contains(r.values, v) {
				return false
			}
		case "exists":
			if !has {
				return false
			}
		case "!exists":
			if has {
				return false
			}
		}
	}
	return true
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// splitTop splits at commas outside parentheses.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, c := range s {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

func parseSelector(s string) (selector, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	var sel selector
	for _, part := range splitTop(s) {
		p := strings.TrimSpace(part)
		switch {
		case strings.HasPrefix(p, "!"):
			sel = append(sel, requirement{key: strings.TrimSpace(p[1:]), op: "!exists"})
		case strings.Contains(p, "!="):
			kv := strings.SplitN(p, "!=", 2)
			sel = append(sel, requirement{key: strings.TrimSpace(kv[0]), op: "!=", values: []string{strings.TrimSpace(kv[1])}})
		case strings.Contains(p, "=="):
			kv := strings.SplitN(p, "==", 2)
			sel = append(sel, requirement{key: strings.TrimSpace(kv[0]), op: "=", values: []string{strings.TrimSpace(kv[1])}})
		case strings.Contains(p, "="):
			kv := strings.SplitN(p, "=", 2)
			sel = append(sel, requirement{key: strings.TrimSpace(kv[0]), op: "=", values: []string{strings.TrimSpace(kv[1])}})
		case strings.Contains(p, "("):
			open := strings.Index(p, "(")
			if !strings.HasSuffix(p, ")") {
				return nil, fmt.Errorf("unable to parse requirement %q", p)
			}
			head := strings.Fields(p[:open])
			if len(head) != 2 || (head[1] != "in" && head[1] != "notin") {
				return nil, fmt.Errorf("unable to parse requirement %q", p)
			}
			var values []string
			for _, v := range strings.Split(p[open+1:len(p)-1], ",") {
				if v = strings.TrimSpace(v); v != "" {
					values = append(values, v)
				}
			}
			sel = append(sel, requirement{key: head[0], op: head[1], values: values})
		default:
			sel = append(sel, requirement{key: p, op: "exists"})
		}
	}
	return sel, nil
}

// ---- TLS ----

func selfSigned() (tls.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, err
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(time.Now().UnixNano()),
		Subject:               pkix.Name{CommonName: "kctl-fakemetrics"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(10 * 365 * 24 * time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		DNSNames:              []string{"localhost"},
		IPAddresses:           []net.IP{net.ParseIP("127.0.0.1"), net.ParseIP("::1")},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, err
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, nil
}

func main() {
	port := flag.Int("port", 0, "HTTPS port")
	bind := flag.String("bind", "127.0.0.1", "address to listen on")
	flag.Parse()
	cert, err := selfSigned()
	if err != nil {
		log.Fatalf("certificate: %v", err)
	}
	s := &server{byNs: map[string]*state{}, requests: map[string][]request{}}
	ln, err := net.Listen("tcp", net.JoinHostPort(*bind, fmt.Sprint(*port)))
	if err != nil {
		// "address already in use" is how the harness recognizes a taken port.
		log.Fatalf("listen: %v", err)
	}
	srv := &http.Server{Handler: logRequests(s), TLSConfig: &tls.Config{Certificates: []tls.Certificate{cert}}, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		sig := make(chan os.Signal, 1)
		signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
		<-sig
		_ = srv.Close()
	}()
	log.Printf("serving the metrics APIs on https://%s", ln.Addr())
	if err := srv.ServeTLS(ln, "", ""); err != nil && err != http.ErrServerClosed {
		log.Fatal(err)
	}
}

// logRequests prints one line per API request (not the control calls), sorted query included.
func logRequests(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/apis/") {
			q, _ := url.ParseQuery(r.URL.RawQuery)
			keys := make([]string, 0, len(q))
			for k := range q {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			log.Printf("%s %s %v user=%q", r.Method, r.URL.Path, keys, r.Header.Get("X-Remote-User"))
		}
		h.ServeHTTP(w, r)
	})
}
