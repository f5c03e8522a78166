package difftest

import (
	"context"
	"fmt"
	"reflect"
	"unsafe"

	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/events"
	"k8s.io/client-go/tools/record"
)

// The harnesses build v1.36.3 controllers with their public constructors
// and call their sync functions directly; they never call Run. A
// constructor starts goroutines all the same: each work queue's (its
// delaying loop and its unfinished-work metrics loop) and each event
// broadcaster's (its distribution loop, and one waiting on the context
// when that can be cancelled); an informer factory that was started runs
// one per informer until its stop channel closes. Nothing of that ends
// by itself, so every harness that builds a controller stops it with
// Stop when its state is done (issue 20: one process running the whole
// module held 327,060 such goroutines).

// Cleaner registers a function to run when a test or one rapid check
// ends: *testing.T, *testing.B and *rapid.T.
type Cleaner interface{ Cleanup(func()) }

// StopOn registers Stop(parts...) on c.
func StopOn(c Cleaner, parts ...any) {
	c.Cleanup(func() { Stop(parts...) })
}

// Stop stops what parts started. Each part is one of
//   - a context.CancelFunc or func(): called first, so that what waits on
//     the context or channel it ends (informers, broadcasters built with
//     record.WithContext) returns;
//   - a controller (a non-nil pointer to a struct): each of its fields
//     holding a work queue is shut down (ShutDown waits for the queue's
//     goroutines), each event broadcaster (client-go record or events)
//     shut down, each value with CancelAndWait (the taint eviction
//     controller's TimedWorkerQueue) cancelled; a controller with none of
//     them is a harness error and panics;
//   - an informers.SharedInformerFactory: shut down last (Shutdown waits
//     for the informers Start started, which end once their stop channel
//     closed).
//
// Nil parts (and nil controller pointers) are skipped. Each stop is idempotent, so a part may be stopped
// twice.
func Stop(parts ...any) {
	var ctrls []any
	var factories []informers.SharedInformerFactory
	for _, p := range parts {
		switch p := p.(type) {
		case nil:
		case context.CancelFunc:
			p()
		case func():
			p()
		case informers.SharedInformerFactory:
			factories = append(factories, p)
		default:
			ctrls = append(ctrls, p)
		}
	}
	for _, c := range ctrls {
		if v := reflect.ValueOf(c); v.Kind() == reflect.Pointer && v.IsNil() {
			continue
		}
		if n := stopFields(c); n == 0 {
			panic(fmt.Sprintf("Stop: %T holds no work queue, event broadcaster or timed worker queue", c))
		}
	}
	for _, f := range factories {
		f.Shutdown()
	}
}

// stopFields stops every work queue, event broadcaster and timed worker
// queue that a field of the struct c points to holds, and returns how
// many it stopped.
func stopFields(c any) int {
	v := reflect.ValueOf(c)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		panic(fmt.Sprintf("Stop: %T is not a pointer to a controller struct", c))
	}
	s := v.Elem()
	n := 0
	for i := range s.NumField() {
		f := s.Field(i)
		switch f.Kind() {
		case reflect.Interface, reflect.Pointer:
			if f.IsNil() {
				continue
			}
		default:
			continue
		}
		switch x := reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Interface().(type) {
		case interface{ ShutDown() }: // every client-go work queue
			x.ShutDown()
		case record.EventBroadcaster:
			x.Shutdown()
		case events.EventBroadcaster:
			x.Shutdown()
		case interface{ CancelAndWait() }:
			x.CancelAndWait()
		default:
			continue
		}
		n++
	}
	return n
}
