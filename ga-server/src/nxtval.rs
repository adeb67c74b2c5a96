//! TCGMSG's NXTVAL shared counter.
