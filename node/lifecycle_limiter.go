package node

import (
	"time"
)

// Limiter is a zone tainter's rate limiter: a token bucket with burst 1
// (upstream flowcontrol.NewTokenBucketRateLimiter(qps,
// EvictionRateLimiterBurst)), or, once the zone's rate has been set to 0 or
// less, the limiter that never accepts (flowcontrol.NewFakeNeverRateLimiter),
// whose Rate records the rate set and whose QPS reads 1.
type Limiter struct {
	Rate   float32   `json:"rate"`
	Tokens float64   `json:"tokens"`
	Last   time.Time `json:"last,omitzero"`
	// Bucket marks a token bucket whose rate is 0 or less (a new zone's
	// limiter when EvictionRate is 0 or less): it never refills, but spends
	// the token it starts with. A rate of 0 or less without Bucket is the
	// never-accepting limiter.
	Bucket bool `json:"bucket,omitempty"`
}

func newLimiter(rate float32) Limiter { return Limiter{Rate: rate, Tokens: 1, Bucket: rate <= 0} }

func (l *Limiter) never() bool { return l.Rate <= 0 && !l.Bucket }

// qps is the rate upstream's limiter reports.
func (l *Limiter) qps() float32 {
	if l.never() {
		return 1
	}
	return l.Rate
}

// TryAccept takes a token at now if one is available: the bucket holds at
// least one, or the wait for the missing fraction, (1 − tokens) / rate
// seconds, is less than a nanosecond (x/time/rate truncates it to whole
// nanoseconds, so a bucket a nanosecond short of full still accepts and
// goes slightly negative). A bucket whose rate is 0 or less only has the
// token it started with.
//
// Source: golang.org/x/time/rate Limiter.AllowN (reserveN, advance,
// durationFromTokens) behind flowcontrol.tokenBucketPassiveRateLimiter.
// TryAccept, and fakeNeverRateLimiter (v1.36.3 with x/time v0.14.0).
func (l *Limiter) TryAccept(now time.Time) bool {
	if l.never() {
		return false
	}
	tokens := l.available(now) - 1
	if tokens < 0 && (l.Rate <= 0 || -tokens/float64(l.Rate)*float64(time.Second) >= 1) {
		return false
	}
	l.Tokens = tokens
	l.Last = now
	return true
}

func (l *Limiter) available(now time.Time) float64 {
	if l.Rate <= 0 {
		return min(l.Tokens, 1)
	}
	last := l.Last
	if now.Before(last) {
		last = now
	}
	t := l.Tokens
	if !last.IsZero() {
		t += now.Sub(last).Seconds() * float64(l.Rate)
	} else {
		t = 1
	}
	if t > 1 {
		t = 1
	}
	return t
}

// swap replaces the limiter's rate the way upstream SwapLimiter does: a
// rate equal to the limiter's QPS (1 for the never-accepting limiter)
// keeps it; a rate of 0 or less installs the never-accepting limiter; a
// positive one a full bucket, emptied when the old limiter had no token to
// give.
func (l *Limiter) swap(rate float32, now time.Time) {
	if l.qps() == rate {
		return
	}
	if rate <= 0 {
		*l = Limiter{Rate: rate}
		return
	}
	had := l.TryAccept(now)
	*l = Limiter{Rate: rate, Tokens: 1, Last: now}
	if !had {
		l.Tokens = 0
	}
}
