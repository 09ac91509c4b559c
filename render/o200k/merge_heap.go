package o200k

import "container/heap"

// mergedHeap is merged in O(n log n) for a long piece (the codec's
// mergePairsHeap): the parts are a linked list and the candidate merges a
// heap ordered by rank, then offset, so among equal ranks the leftmost
// pair merges first, as in the scan.
func mergedHeap(piece string) int {
	const none = ^uint32(0)
	type node struct {
		prev, next int32
		rank       uint32
	}
	n := int32(len(piece))
	nodes := make([]node, n+1)
	for i := range nodes {
		nodes[i] = node{prev: int32(i) - 1, next: int32(i) + 1, rank: none}
	}
	nodes[n].next = -1
	rankOf := func(i int32) uint32 {
		j := nodes[i].next
		if j < 0 {
			return none
		}
		k := nodes[j].next
		if k < 0 {
			return none
		}
		if r, ok := rank(piece[i:k]); ok {
			return r
		}
		return none
	}
	h := &candidates{}
	for i := int32(0); i+2 <= n; i++ {
		if r := rankOf(i); r != none {
			nodes[i].rank = r
			*h = append(*h, candidate{r, i})
		}
	}
	heap.Init(h)
	parts := int(n) // parts left; every merge removes one
	for h.Len() > 0 {
		top := heap.Pop(h).(candidate)
		i := top.at
		if nodes[i].rank != top.rank {
			continue // stale: the pair changed since it was pushed
		}
		j := nodes[i].next
		k := nodes[j].next
		nodes[j].rank = none
		nodes[i].next = k
		if k >= 0 {
			nodes[k].prev = i
		}
		parts--
		for _, b := range [2]int32{i, nodes[i].prev} {
			if b < 0 {
				continue
			}
			nodes[b].rank = rankOf(b)
			if nodes[b].rank != none {
				heap.Push(h, candidate{nodes[b].rank, b})
			}
		}
	}
	return parts
}

type candidate struct {
	rank uint32
	at   int32
}

type candidates []candidate

func (h candidates) Len() int { return len(h) }
func (h candidates) Less(a, b int) bool {
	if h[a].rank != h[b].rank {
		return h[a].rank < h[b].rank
	}
	return h[a].at < h[b].at
}
func (h candidates) Swap(a, b int) { h[a], h[b] = h[b], h[a] }
func (h *candidates) Push(x any)   { *h = append(*h, x.(candidate)) }
func (h *candidates) Pop() any {
	old := *h
	c := old[len(old)-1]
	*h = old[:len(old)-1]
	return c
}
