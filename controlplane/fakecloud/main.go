// kctl-fakecloud runs the upstream service (load-balancer) controller of k8s.io/cloud-provider
// against a real kube-apiserver, with the upstream fake cloud behind it, so that the e2e tests can
// compare kctl's load-balancer plans with what the real controller calls and writes.
//
//	kctl-fakecloud --kubeconfig=FILE [--port=N] [--external-ip=203.0.113.10] [--state=FILE] [--calls=FILE] [--error=MSG] [--faults=FILE]
//
// Every cloud call is printed as one JSON line (to --calls, else stdout):
//
//	{"seq":3,"method":"EnsureLoadBalancer","service":"ns/web","loadBalancer":"a…","hosts":["n1","n2"]}
//
// Host names are sorted (the controller passes them in lister order). GetLoadBalancer is stateful,
// unlike the fake's own (which answers a fixed Exists): a balancer exists once ensured and until
// deleted, so a delete calls EnsureLoadBalancerDeleted as it would on a real cloud. --state keeps
// the set of existing balancers in a file, so a restarted controller finds the cloud as it left it
// (and a test can start with balancers that already exist).
//
// On --port (loopback) it serves GET /healthz (200 once the informers have synced), and the error
// switch: PUT /error with a message makes every Ensure/Update/Delete call fail with it (as the
// fake's Err does), DELETE /error clears it; --error turns it on from the start.
//
// --faults names a JSON file of per-Service answers, read at start: {"ns/name": [fault, …]}, each
// fault {"kind": "Error"|"RetryAfter"|"ImplementedElsewhere", "message": "…", "retryAfterSeconds": n}.
// The Service's Ensure and Delete calls take them in order (one per call) and fail with
// them: Error as a plain error, RetryAfter as the cloud-provider api.RetryError (the controller
// retries after exactly that delay), ImplementedElsewhere as the cloudprovider sentinel. Once its
// list is used up, the Service's calls succeed.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	v1 "k8s.io/api/core/v1"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	cloudprovider "k8s.io/cloud-provider"
	cloudapi "k8s.io/cloud-provider/api"
	servicecontroller "k8s.io/cloud-provider/controllers/service"
	"k8s.io/cloud-provider/fake"
	"k8s.io/component-base/metrics/prometheus/controllers"
	"k8s.io/klog/v2"
)

// call is one line of output.
type call struct {
	Seq          int64    `json:"seq"`
	Method       string   `json:"method"`
	Service      string   `json:"service"`
	LoadBalancer string   `json:"loadBalancer"`
	Hosts        []string `json:"hosts,omitzero"` // an empty list is printed: no eligible node
	Exists       *bool    `json:"exists,omitempty"`
	Error        string   `json:"error,omitempty"`
}

// cloud wraps fake.Cloud: its Ensure/Update answers (status echoing the ports, ExternalIP), plus a
// memory of which balancers exist, an error switch, and a line per call. The controller's node
// sync may call from several goroutines, so every call holds mu.
type cloud struct {
	*fake.Cloud
	mu        sync.Mutex
	out       io.Writer
	seq       int64
	stateFile string
	exists    map[string]bool
	fail      string
	faults    map[string][]fault
}

// fault is one planned answer of a Service's Ensure, Update or Delete call (--faults).
type fault struct {
	Kind              string `json:"kind"`
	Message           string `json:"message"`
	RetryAfterSeconds int    `json:"retryAfterSeconds"`
}

// nextFault takes the Service's next planned fault, if any is left (mu held).
func (c *cloud) nextFault(svc *v1.Service) error {
	list := c.faults[key(svc)]
	if len(list) == 0 {
		return nil
	}
	f := list[0]
	c.faults[key(svc)] = list[1:]
	msg := f.Message
	if msg == "" {
		msg = "planned failure"
	}
	switch f.Kind {
	case "ImplementedElsewhere":
		return cloudprovider.ImplementedElsewhere
	case "RetryAfter":
		return cloudapi.NewRetryError(msg, time.Duration(f.RetryAfterSeconds)*time.Second)
	default:
		return errors.New(msg)
	}
}

func (c *cloud) LoadBalancer() (cloudprovider.LoadBalancer, bool) { return c, true }

func (c *cloud) emit(l call) {
	c.seq++
	l.Seq = c.seq
	b, _ := json.Marshal(l)
	fmt.Fprintf(c.out, "%s\n", b)
}

func key(svc *v1.Service) string { return svc.Namespace + "/" + svc.Name }

func hostNames(nodes []*v1.Node) []string {
	names := make([]string, 0, len(nodes))
	for _, n := range nodes {
		names = append(names, n.Name)
	}
	sort.Strings(names)
	return names
}

// failure applies the error switch to the fake, which returns fake.Err from every LB call.
func (c *cloud) failure() error {
	if c.fail == "" {
		c.Cloud.Err = nil
	} else {
		c.Cloud.Err = errors.New(c.fail)
	}
	return c.Cloud.Err
}

func (c *cloud) saveState() {
	if c.stateFile == "" {
		return
	}
	names := make([]string, 0, len(c.exists))
	for n := range c.exists {
		names = append(names, n)
	}
	sort.Strings(names)
	b, _ := json.Marshal(names)
	tmp := c.stateFile + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err == nil {
		_ = os.Rename(tmp, c.stateFile)
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func (c *cloud) GetLoadBalancer(ctx context.Context, clusterName string, svc *v1.Service) (*v1.LoadBalancerStatus, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	name := c.GetLoadBalancerName(ctx, clusterName, svc)
	exists := c.exists[name]
	c.emit(call{Method: "GetLoadBalancer", Service: key(svc), LoadBalancer: name, Exists: &exists})
	if !exists {
		return nil, false, nil
	}
	return &v1.LoadBalancerStatus{Ingress: []v1.LoadBalancerIngress{{IP: c.ExternalIP.String()}}}, true, nil
}

func (c *cloud) EnsureLoadBalancer(ctx context.Context, clusterName string, svc *v1.Service, nodes []*v1.Node) (*v1.LoadBalancerStatus, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.failure()
	var status *v1.LoadBalancerStatus
	err := c.nextFault(svc)
	if err == nil {
		status, err = c.Cloud.EnsureLoadBalancer(ctx, clusterName, svc, nodes)
	}
	name := c.GetLoadBalancerName(ctx, clusterName, svc)
	if err == nil {
		c.exists[name] = true
		c.saveState()
	}
	c.emit(call{Method: "EnsureLoadBalancer", Service: key(svc), LoadBalancer: name, Hosts: hostNames(nodes), Error: errText(err)})
	return status, err
}

func (c *cloud) UpdateLoadBalancer(ctx context.Context, clusterName string, svc *v1.Service, nodes []*v1.Node) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	// No planned fault here: the node sync's Update races the Service's first sync, and a fault
	// meant for its Ensure must not be taken by whichever call comes first.
	c.failure()
	err := c.Cloud.UpdateLoadBalancer(ctx, clusterName, svc, nodes)
	c.emit(call{Method: "UpdateLoadBalancer", Service: key(svc), LoadBalancer: c.GetLoadBalancerName(ctx, clusterName, svc), Hosts: hostNames(nodes), Error: errText(err)})
	return err
}

func (c *cloud) EnsureLoadBalancerDeleted(ctx context.Context, clusterName string, svc *v1.Service) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.failure()
	err := c.nextFault(svc)
	if err == nil {
		err = c.Cloud.EnsureLoadBalancerDeleted(ctx, clusterName, svc)
	}
	name := c.GetLoadBalancerName(ctx, clusterName, svc)
	if err == nil {
		delete(c.exists, name)
		c.saveState()
	}
	c.emit(call{Method: "EnsureLoadBalancerDeleted", Service: key(svc), LoadBalancer: name, Error: errText(err)})
	return err
}

func main() {
	kubeconfig := flag.String("kubeconfig", "", "kubeconfig of the kube-apiserver to run against")
	port := flag.Int("port", 0, "loopback port for /healthz and /error (0: none)")
	externalIP := flag.String("external-ip", "203.0.113.10", "the address every balancer gets")
	stateFile := flag.String("state", "", "file holding the names of the balancers that exist (read at start, rewritten on change)")
	callsFile := flag.String("calls", "", "append the call lines to this file instead of stdout")
	clusterName := flag.String("cluster-name", "kubernetes", "the cluster name passed to the cloud")
	fail := flag.String("error", "", "start with the error switch on: every Ensure/Update/Delete call fails with this message")
	faultsFile := flag.String("faults", "", "JSON file of per-Service planned failures: {\"ns/name\": [{\"kind\": \"Error\"|\"RetryAfter\"|\"ImplementedElsewhere\", \"message\": \"…\", \"retryAfterSeconds\": n}]}")
	klog.InitFlags(nil)
	flag.Parse()
	if err := run(*kubeconfig, *port, *externalIP, *stateFile, *callsFile, *clusterName, *fail, *faultsFile); err != nil {
		fmt.Fprintf(os.Stderr, "kctl-fakecloud: %v\n", err)
		os.Exit(1)
	}
}

func run(kubeconfig string, port int, externalIP, stateFile, callsFile, clusterName, fail, faultsFile string) error {
	if kubeconfig == "" {
		return errors.New("--kubeconfig is required")
	}
	ip := net.ParseIP(externalIP)
	if ip == nil {
		return fmt.Errorf("--external-ip %q is not an IP address", externalIP)
	}
	out := io.Writer(os.Stdout)
	if callsFile != "" {
		f, err := os.OpenFile(callsFile, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			return err
		}
		defer f.Close()
		out = f
	}
	c := &cloud{Cloud: &fake.Cloud{ExternalIP: ip}, out: out, stateFile: stateFile, exists: map[string]bool{}, fail: fail, faults: map[string][]fault{}}
	if faultsFile != "" {
		b, err := os.ReadFile(faultsFile)
		if err != nil {
			return err
		}
		if err := json.Unmarshal(b, &c.faults); err != nil {
			return fmt.Errorf("%s: %v", faultsFile, err)
		}
		for k, list := range c.faults {
			for _, f := range list {
				if f.Kind != "Error" && f.Kind != "RetryAfter" && f.Kind != "ImplementedElsewhere" {
					return fmt.Errorf("%s: %s: kind %q is not Error, RetryAfter or ImplementedElsewhere", faultsFile, k, f.Kind)
				}
			}
		}
	}
	if stateFile != "" {
		if b, err := os.ReadFile(stateFile); err == nil {
			var names []string
			if err := json.Unmarshal(b, &names); err != nil {
				return fmt.Errorf("%s: %v", stateFile, err)
			}
			for _, n := range names {
				c.exists[n] = true
			}
		} else if !os.IsNotExist(err) {
			return err
		}
	}

	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return err
	}
	cfg.QPS, cfg.Burst = 1000, 2000
	cfg.UserAgent = "service-controller (kctl-fakecloud)"
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	ctx, cancel := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer cancel()

	factory := informers.NewSharedInformerFactory(client, 12*time.Hour)
	ctrl, err := servicecontroller.New(c, client, factory.Core().V1().Services(), factory.Core().V1().Nodes(), clusterName, utilfeature.DefaultFeatureGate)
	if err != nil {
		return err
	}
	var synced atomic.Bool
	if port != 0 {
		ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
		if err != nil {
			return err
		}
		go func() { _ = http.Serve(ln, c.handler(&synced)) }()
	}
	factory.Start(ctx.Done())
	for typ, ok := range factory.WaitForCacheSync(ctx.Done()) {
		if !ok {
			return fmt.Errorf("the %v informer did not sync", typ)
		}
	}
	synced.Store(true)
	ctrl.Run(ctx, 1, controllers.NewControllerManagerMetrics("kctl-fakecloud"))
	return nil
}

func (c *cloud) handler(synced *atomic.Bool) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {
		if !synced.Load() {
			http.Error(w, "informers not synced", http.StatusServiceUnavailable)
			return
		}
		fmt.Fprintln(w, "ok")
	})
	mux.HandleFunc("/error", func(w http.ResponseWriter, r *http.Request) {
		c.mu.Lock()
		defer c.mu.Unlock()
		switch r.Method {
		case http.MethodPut:
			b, _ := io.ReadAll(r.Body)
			c.fail = string(b)
			if c.fail == "" {
				c.fail = "injected failure"
			}
		case http.MethodDelete:
			c.fail = ""
		case http.MethodGet:
		default:
			http.Error(w, "PUT, DELETE or GET", http.StatusMethodNotAllowed)
			return
		}
		fmt.Fprintln(w, c.fail)
	})
	return mux
}
