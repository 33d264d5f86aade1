/* hb_other.h: a bus callback table whose member is named ioctl. */
struct hb_bus_ops {
	int (*ioctl)(int unit, unsigned int cmd);
};

static int hb_bus_cmd(int unit, unsigned int cmd)
{
	return unit + cmd;
}

static struct hb_bus_ops hb_bus = {
	.ioctl	= hb_bus_cmd,
};
