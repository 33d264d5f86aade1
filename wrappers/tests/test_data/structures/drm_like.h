/* The driver structure a drm-like driver embeds its fops in. */
struct drm_driver {
	int driver_features;
	struct file_operations fops;
	const char *name;
};
