-- Two address maps that disagree.
address_map({ partitions = 6, interleave = 256 })
address_map({ partitions = 6, interleave = 512 })
