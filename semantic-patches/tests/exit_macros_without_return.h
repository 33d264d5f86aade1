/* Macros of the driver's own header; none of them returns. */
#define LED_DEBUG(fmt, ...)	pr_debug("led: " fmt, ##__VA_ARGS__)
#define LED_CHECK(led)		BUG_ON(!(led))
