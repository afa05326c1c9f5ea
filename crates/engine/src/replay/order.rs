//! Orders applied in place: a catalog of 100,000 tools makes lists of hundreds of thousands
//! of findings or outcomes, which a sort that copies would double.

/// Reorders `items` so the item at `order[i]` comes to position `i`, one cycle of the
/// permutation at a time; `order`, which must hold each position of `items` once, is used up.
pub fn permute<T>(items: &mut [T], order: &mut [u32]) {
    debug_assert_eq!(items.len(), order.len());
    for start in 0..items.len() {
        let mut here = start;
        loop {
            let from = order[here] as usize;
            order[here] = here as u32;
            if from == start {
                break;
            }
            items.swap(here, from);
            here = from;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permute_applies_an_order_in_place() {
        let mut items = vec!['a', 'b', 'c', 'd', 'e', 'f'];
        let mut order = vec![3, 0, 4, 1, 2, 5];
        permute(&mut items, &mut order);
        assert_eq!(items, ['d', 'a', 'e', 'b', 'c', 'f']);
        let mut reversed: Vec<u32> = (0..7).rev().collect();
        let mut items: Vec<u32> = (0..7).collect();
        permute(&mut items, &mut reversed);
        assert_eq!(items, [6, 5, 4, 3, 2, 1, 0]);
    }
}
