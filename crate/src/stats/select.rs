//! Order statistics: the values a sort would put at some ranks, without
//! the sort. A latency CDF reads 1,500 ranks of a million values; a sort
//! is about twenty passes over them, a quickselect per rank about ten. Here
//! it is three: the values are counted into 65,536 buckets by their bits
//! (ordered as `f64::total_cmp` orders them), and only the few buckets that
//! hold a wanted rank are gathered and selected in.

/// Buckets of the counting pass (2^16: the counts stay in the cache).
const BUCKET_BITS: u32 = 16;

/// Below this many values a sort is as quick and simpler.
const SORT_BELOW: usize = 1 << 14;

/// The values that sorting `values` by [`f64::total_cmp`] would put at
/// `ranks` (ascending, each below `values.len()`), exactly.
pub(crate) fn at_ranks(values: &[f64], ranks: &[usize]) -> Vec<f64> {
    debug_assert!(ranks.windows(2).all(|w| w[0] <= w[1]));
    debug_assert!(ranks.last().is_none_or(|&r| r < values.len()));
    if ranks.is_empty() {
        return Vec::new();
    }
    if values.len() < SORT_BELOW {
        let mut sorted = values.to_vec();
        sorted.sort_unstable_by(f64::total_cmp);
        return ranks.iter().map(|&r| sorted[r]).collect();
    }
    // One pass for the range of the keys, and whether they are in order
    // already (FIFO's latencies on one core): then the ranks are read off.
    let (mut lo, mut hi, mut ascending, mut prev) = (u64::MAX, 0, true, 0);
    for &x in values {
        let k = key(x);
        lo = lo.min(k);
        hi = hi.max(k);
        ascending &= prev <= k;
        prev = k;
    }
    if ascending {
        return ranks.iter().map(|&r| values[r]).collect();
    }
    let shift = (u64::BITS - (hi - lo).leading_zeros()).saturating_sub(BUCKET_BITS);
    let bucket = |x: f64| ((key(x) - lo) >> shift) as usize;
    let mut counts = vec![0u32; 1 << BUCKET_BITS];
    for &x in values {
        counts[bucket(x)] += 1;
    }
    // Each wanted bucket's place in `gathered` (u32::MAX: not wanted), and
    // for each rank, its bucket's first rank.
    let mut place = vec![u32::MAX; counts.len()];
    let mut wanted: Vec<(usize, usize, usize)> = Vec::new(); // (bucket, first rank, count)
    let mut first_rank = Vec::with_capacity(ranks.len());
    let (mut b, mut below) = (0usize, 0usize);
    for &r in ranks {
        while below + counts[b] as usize <= r {
            below += counts[b] as usize;
            b += 1;
        }
        if place[b] == u32::MAX {
            place[b] = wanted.len() as u32;
            wanted.push((b, below, counts[b] as usize));
        }
        first_rank.push(below);
    }
    let mut start = Vec::with_capacity(wanted.len());
    let mut total = 0;
    for &(_, _, count) in &wanted {
        start.push(total);
        total += count;
    }
    let mut gathered = vec![0.0; total];
    let mut next = start.clone();
    for &x in values {
        let p = place[bucket(x)];
        if p != u32::MAX {
            let i = &mut next[p as usize];
            gathered[*i] = x;
            *i += 1;
        }
    }
    let mut out = vec![0.0; ranks.len()];
    let mut i = 0;
    for (w, &(_, first, count)) in wanted.iter().enumerate() {
        let j = i + first_rank[i..].iter().take_while(|&&f| f == first).count();
        let local: Vec<usize> = ranks[i..j].iter().map(|&r| r - first).collect();
        let slice = &mut gathered[start[w]..start[w] + count];
        select_in(slice, 0, &local, &mut out[i..j]);
        i = j;
    }
    out
}

/// `x`'s bits as an integer that orders as [`f64::total_cmp`] does.
#[inline(always)]
fn key(x: f64) -> u64 {
    // Negative: every bit flipped; positive: the sign bit set.
    let b = x.to_bits();
    b ^ ((b as i64 >> 63) as u64 | 1 << 63)
}

/// Writes into `out[i]` the value of rank `ranks[i]` (ascending, counted
/// from `offset`, the rank of `v[0]`'s place) as if `v` were sorted:
/// quickselect the middle rank, then each side for the ranks in it.
fn select_in(v: &mut [f64], offset: usize, ranks: &[usize], out: &mut [f64]) {
    let Some(&r) = ranks.get(ranks.len() / 2) else {
        return;
    };
    let at = r - offset;
    let (left, x, right) = v.select_nth_unstable_by(at, f64::total_cmp);
    let below = ranks.partition_point(|&q| q < r);
    let upto = ranks.partition_point(|&q| q <= r);
    out[below..upto].fill(*x);
    let (out_left, out_rest) = out.split_at_mut(below);
    select_in(left, offset, &ranks[..below], out_left);
    select_in(right, r + 1, &ranks[upto..], &mut out_rest[upto - below..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted_at(values: &[f64], ranks: &[usize]) -> Vec<u64> {
        let mut s = values.to_vec();
        s.sort_unstable_by(f64::total_cmp);
        ranks.iter().map(|&r| s[r].to_bits()).collect()
    }

    fn bits(v: Vec<f64>) -> Vec<u64> {
        v.into_iter().map(f64::to_bits).collect()
    }

    /// Every rank of values with ties, both zeros, negatives, infinities
    /// and NaNs, around the sort threshold and well above it.
    #[test]
    fn equals_sorting_then_indexing() {
        let mut x: u64 = 7;
        let mut next = || {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            x >> 11
        };
        let specials = [
            0.0,
            -0.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            -f64::NAN,
        ];
        for n in [1usize, 2, 100, SORT_BELOW - 1, SORT_BELOW, 70_001, 300_000] {
            let values: Vec<f64> = (0..n)
                .map(|i| match next() % 10 {
                    0 => specials[i % specials.len()],
                    1..=3 => ((next() % 50) as f64) * 0.5,
                    4 => -((next() % 1000) as f64) / 3.0,
                    _ => (next() % 10_000_000) as f64 / 7.0,
                })
                .collect();
            let step = (n / 1500).max(1);
            let mut ranks: Vec<usize> = (0..n).step_by(step).collect();
            ranks.push(n - 1);
            ranks.push(n - 1);
            assert_eq!(
                bits(at_ranks(&values, &ranks)),
                sorted_at(&values, &ranks),
                "n = {n}"
            );
        }
    }

    /// A distribution the buckets split badly: most values equal, the rest
    /// in a narrow band, and a sorted run (FIFO's latencies).
    #[test]
    fn skewed_and_sorted_values() {
        let n = 200_000;
        let same: Vec<f64> = (0..n)
            .map(|i| {
                if i % 10 == 0 {
                    1.0 + i as f64 * 1e-12
                } else {
                    4.0
                }
            })
            .collect();
        let sorted: Vec<f64> = (0..n).map(|i| (i as f64).sqrt()).collect();
        let ranks: Vec<usize> = (0..n).step_by(133).chain([n - 1]).collect();
        for v in [same, sorted] {
            assert_eq!(bits(at_ranks(&v, &ranks)), sorted_at(&v, &ranks));
        }
        assert_eq!(at_ranks(&vec![3.0; n], &[0, n / 2, n - 1]), vec![3.0; 3]);
        assert!(at_ranks(&[1.0], &[]).is_empty());
    }
}
