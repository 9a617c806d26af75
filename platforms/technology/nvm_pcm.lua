-- Persistent memory figures for the PM platforms (specs/agpm.lua,
-- platforms/gtx480_pm.lua): the nvm_controller's media as phase-change
-- memory, with the GPU's blocks from technology/gtx480_40nm.lua. Figures as
-- in that file: { value, unit, source, note }.
--
-- Source: Lee, Ipek, Mutlu and Burger, "Architecting Phase Change Memory as
-- a Scalable DRAM Alternative", ISCA 2009: PCM array read 2.47 pJ/bit,
-- array write 16.82 pJ/bit (their Table 1, from published prototypes).
-- A media access is priced as 64 bytes (512 bits): the nvm_controller counts
-- media accesses, not their bytes.
return {
    name = "nvm_pcm",
    blocks = {
        nvm_controller = {
            static = { 0.3, "W", "estimate: controller, WPQ SRAM and media peripherals of a channel (PCM cells need no refresh)", "+-100%" },
            read_request = { 20, "pJ", "estimate: a read queued and searched against the WPQ's addresses", "+-100%" },
            wpq_insert = { 40, "pJ", "CACTI-style: a 64-byte entry and its address written into a 64-entry SRAM/CAM", "+-60%" },
            media_read = { 1265, "pJ", "Lee et al. ISCA'09: 2.47 pJ/bit x 512 bits", "+-50%, and x2 or x0.5 when the access is 128 or 32 bytes" },
            media_write = { 8612, "pJ", "Lee et al. ISCA'09: 16.82 pJ/bit x 512 bits", "+-50%: newer PCM/3D XPoint parts write for less; same size caveat as media_read" },
        },
    },
}
