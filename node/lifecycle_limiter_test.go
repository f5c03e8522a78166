package node

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// A new zone's bucket holds one token; at 0.1/s the next comes 10 s after
// the last one spent, not a nanosecond-sized fraction earlier.
func TestLimiterTryAccept(t *testing.T) {
	t.Parallel()
	l := newLimiter(0.1)
	require.True(t, l.TryAccept(t0), "full bucket")
	require.False(t, l.TryAccept(t0), "emptied at t0")
	require.False(t, l.TryAccept(t0.Add(9*time.Second)), "0.9 of a token")
	require.True(t, l.TryAccept(t0.Add(10*time.Second)), "one token after 10 s")
	require.False(t, l.TryAccept(t0.Add(10*time.Second)), "spent again")
}

// The never-accepting limiter (rate 0 without Bucket) refuses, and a
// rate-0 bucket spends its one token, then refuses for ever.
func TestLimiterZeroRate(t *testing.T) {
	t.Parallel()
	never := Limiter{}
	require.False(t, never.TryAccept(t0), "never limiter")
	bucket := newLimiter(0)
	require.True(t, bucket.Bucket)
	require.True(t, bucket.TryAccept(t0), "rate-0 bucket's first token")
	require.False(t, bucket.TryAccept(t0.Add(time.Hour)), "rate-0 bucket never refills")
}

// swap keeps a limiter whose QPS already equals the rate (1 for the
// never limiter), installs the never limiter for rate 0, and gives a new
// positive rate a full bucket only when the old limiter had a token.
func TestLimiterSwap(t *testing.T) {
	t.Parallel()
	l := newLimiter(0.1)
	l.swap(0, t0)
	require.Equal(t, Limiter{Rate: 0}, l, "rate 0 installs the never limiter")
	require.Equal(t, float32(1), l.qps())
	l.swap(1, t0)
	require.False(t, l.TryAccept(t0), "a stopped zone set to rate 1 stays stopped")

	full := newLimiter(0.1)
	full.swap(0.01, t0)
	require.Equal(t, Limiter{Rate: 0.01, Tokens: 1, Last: t0}, full, "old limiter had a token")

	empty := newLimiter(0.1)
	require.True(t, empty.TryAccept(t0))
	empty.swap(0.01, t0)
	require.Equal(t, Limiter{Rate: 0.01, Tokens: 0, Last: t0}, empty, "old limiter had none")

	same := newLimiter(0.1)
	require.True(t, same.TryAccept(t0))
	before := same
	same.swap(0.1, t0.Add(time.Second))
	require.Equal(t, before, same, "same rate keeps the limiter")
}
